//! The words and phrases a reviewer looks for in a tool description, one list per thing a
//! description should say: that it returns something, when to call the tool, what limits
//! it, what formats an input takes. They were chosen on the tuning part of the labelled set
//! in `fixtures/quality/` (see `docs/quality.md`), never on its held-out part.

use crate::analysis::screen::{Patterns, Screen};
use regex::Regex;
use std::sync::LazyLock;

/// Compiles one of this module's patterns, which are fixed and tested. Their word boundaries
/// are ASCII ones: a Unicode `\b` makes the fast automaton give up on any text with a
/// character outside ASCII (a curly quote, a dash, an emoji), and the slow engine that takes
/// over cost about a twentieth of `toolpact check` on real catalogs. The cues are English
/// words, so only a word glued to a letter outside ASCII reads differently.
fn compile(pattern: &str) -> Regex {
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)"))
        .unwrap_or_else(|e| unreachable!("a cue does not compile: {e}"))
}

/// Words that add nothing to a purpose: stop words of purpose sentences.
pub(crate) const STOP: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does",
    "each", "for", "from", "if", "in", "into", "is", "it", "its", "no", "not", "of", "on", "or",
    "than", "that", "the", "then", "this", "to", "using", "via", "when", "which", "will", "with",
    "you", "your",
];

/// Words that name no particular thing: "data", "details", "specific", "existing".
pub(crate) const FILLER: &[&str] = &[
    "available",
    "certain",
    "current",
    "data",
    "detail",
    "detailed",
    "details",
    "existing",
    "function",
    "given",
    "id",
    "info",
    "information",
    "item",
    "items",
    "multiple",
    "new",
    "provided",
    "specific",
    "tool",
    "various",
];

/// Verbs and nouns that say a tool does *something* without saying what: "Handles requests",
/// "Utility for data operations".
pub(crate) const VAGUE: &[&str] = &[
    "access",
    "action",
    "deal",
    "general",
    "handle",
    "help",
    "interact",
    "manage",
    "operation",
    "perform",
    "process",
    "request",
    "stuff",
    "support",
    "thing",
    "use",
    "utility",
    "various",
    "work",
];

/// Places every tool of its kind acts in, which tell no more which thing it acts on than the
/// name does: "Hover an element on the page", "Create a table in the database".
pub(crate) const CONTEXT: &[&str] = &["browser", "database", "element", "page", "server", "window"];

/// Words of HTTP boilerplate that some generators put before every description ("Error
/// Responses: 400: Bad request", "This is the public REST API").
pub(crate) const BOILERPLATE: &[&str] = &[
    "api", "bad", "endpoint", "error", "http", "https", "public", "response", "rest",
];

/// A label before the purpose: a product tag ("Notion | …", "Twilio - Api: …") or a heading
/// ("Purpose:"), which names no action and no object of its own.
pub(crate) static LEADING_LABEL: LazyLock<Regex> =
    LazyLock::new(|| compile(r"^[^\w\n]*(?:\w[\w ]{0,30}?\s*(?:\||:|\s-\s)\s*)+"));

/// Text some servers put in every tool's description, which says nothing of the tool: "This is
/// the public Twilio REST API.", "(Uses default AccountSid: AC… if not provided)".
pub(crate) static BOILERPLATE_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b[Tt]his is the (public |official )?([A-Z][\w.\-]* ){1,3}(REST )?API\b\.?|\([Uu]ses? (the )?default \w+: [^)]{1,80}\)",
    )
});

/// A purpose that is only an HTTP route: "Make a POST request to /2010-04-01/Accounts.json".
pub(crate) static HTTP_ROUTE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)^\W*(make|send|perform|execute|issue) an? (get|post|put|patch|delete|head) (request|call) (to|on|against) \S+\W*$",
    )
});

/// Where the purpose ends and a list of arguments, results or notes begins.
pub(crate) static SECTION: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\n\s*(args|arguments|parameters|params|returns?|raises|examples?|error responses|usage|requirements|note)\s*:",
    )
});

/// Says what comes back: "Returns …", "Lists …", "… including …".
pub(crate) static RETURNS: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(returns?|returning|outputs?|produces?|responds?|response|results?|yields?|giv(es|ing) back|including|includes|with (their|its|the)|containing)\b",
    )
});

/// A general sentence of use: "Use this to …", "Useful for …".
pub(crate) static USE_GENERAL: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(use (this|it|the)?( tool)? ?(to|for)|(this|it|tool) can be used (to|for)|useful (for|to|when)|helpful (for|to|when)|best for|ideal for|good for|perfect for|commonly used (for|to)|(this tool|it) helps|intended for|designed for|use cases?|when to use|use when|(ai )?agents? (can )?use|help(s|ing) (ai )?agents?|use (it|this( tool)?) often|enables? (ai )?agents? to|used by (ai )?agents? to|use [`'\x22]?[\w.\-]+[`'\x22]? (param(eter)?|option|flag|argument|field)s? to|set [`'\x22]?[\w.\-]+ ?= ?[\w.\-]+[`'\x22]? to)\b|(?m:^\s*(#+\s*)?usage( tips| notes| guidelines?)?\s*:?\s*$)|(?m:^\s*usage\s*:)",
    )
});

/// A condition for calling, or an order: "when the user asks", "call X first", "before …".
pub(crate) static USE_CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(when (the )?(user|you|asked|needed)|if (the )?(user|you)|whenever|before (calling|using|any|creating|updating|deleting|running|trying|attempting|adding|writing|editing|making|deploy\w*|commit\w*|publish\w*|merg\w*|submit\w*|releas\w*)|mandatory (after|before)|before it can be|use alongside|use (`[^`]+`|\w+_\w+(\(\))?|\w+\(\)) to (find|get|look up|discover|obtain|retrieve|list)|after (calling|using|searching|reading|creating|this)|(call|use|run) [\w`'()\-/]+ first|omit (it|them|this|both|[\w`'\-]+( and [\w`'\-]+)?) to (clear|read|reset|restore)|(with|without) [`'\x22]?\w+[`'\x22]? \((\w+ )?mode\)|first call|must (be )?call|must be called|call this|use this (tool )?(when|after|before|only|whenever|if)|only (when|after|if)|prerequisite|requires? [\w`'\-]+ to have been called|when used (with|without|for|on|in|after|before)|(for|from|of|after) an? (prior|previous|earlier) `?\w+[_\-][\w\-]*\w|(typical|recommended|suggested|common|usual) workflow|workflow\s*:)\b",
    )
});

/// When not to call it, or what to call instead.
pub(crate) static USE_ALTERNATIVE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(instead|rather than|do not use|don't use|do not call|don't call|never call|not for|never use|prefer|otherwise use|use [\w`'\-]+ for|for [\w ]+,? use)\b",
    )
});

/// A parameter whose value comes from another call, which sets an order: "Use
/// `mobile_list_available_devices` to find which devices are available", "Use the id returned
/// by one of the connect tools", "Name from describe_sheet".
pub(crate) static PRIOR_CALL: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(use [`'\x22]?[a-z]\w*[_\-/][a-z][\w\-/]*[`'\x22]?(\(\))? (first )?to (find|get|look up|discover|obtain|retrieve|list|see)|(returned|given|listed|shown|provided|obtained) by (one of )?(the )?([`'\x22]?[a-z]\w*_\w+[`'\x22]?|[\w\-]+ tools)|(name|id|identifier|uid|key|value)s? (from|as (shown|returned|listed) by) [`'\x22]?[a-z]\w*_\w+|(call|use|run) [`'\x22]?[a-z]\w*[_/]\w[\w\-/]*[`'\x22]? first)\b",
    )
});

/// A hint of the situation, no more: "such as …", "for debugging".
pub(crate) static USE_HINT: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?i)\b(such as|e\.g\.|for example|for debugging|to help|helps)\b"));

/// The kinds of limitation a description can state, each with the words that state it: a
/// bound, pagination, a side effect or cost, a failure, a requirement.
pub(crate) static LIMITATIONS: LazyLock<[Regex; 5]> = LazyLock::new(|| {
    [
        compile(
            r"(?i)\b(max(imum)?|at most|up to|no more than|limit(ed)? to|cap(ped)? at|between \d+ and \d+|truncat\w*|bounded|exceed\w*|(larger|greater|bigger|longer|more|fewer|less) than \d[\d,]*(\.\d+)?\s?([kmgt]b|bytes?|characters?|chars|tokens?|items?|results?|rows?|records?|entry|entries|files?|pages?|requests?|calls?|ms|milliseconds?|seconds?|minutes?|hours?|days?|weeks?|lines?|words?|messages?)|from (one|two|three|\d+) to (\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|thousand)|after \d+ (seconds?|minutes?|hours?|days?)|(over|above|under|below|beyond) \d+(\.\d+)?\s?[kmgt]b|\d+(\.\d+)?\s?[kmgt]b( \w+){0,2} (limit|cap|max(imum)?)|limit of \d+|\d[\d,]*(\.\d+)?\s?([kmgt]b )?or (less|fewer|smaller))\b|\(\d+\s*[-–]\s*\d+[),]|\b\d+\s*[-–]\s*\d+\)",
        ),
        compile(
            r"(?i)\b(paginat\w*|next[_ ]?page|page[_ ]?token|next[_ ]?token|cursor|offset|start[_ ]?index|start_at|per[_ ]?page|page size|page number)\b",
        ),
        compile(
            r"(?i)\b(permanent\w*|cannot be undone|irreversibl\w*|overwrit\w*|destructive|side effects?|billed|charges?|costs?|credits?|idempotent|read-only|does not (modify|mutate|change)|persist\w*|slower than|(very|significantly|much) slow(er)?|can take (minutes|seconds|hours|a while|long|several)|(will be|are|is|gets?) (saved|written|stored) (to|in|relative to)|affects? (future|existing|all|every)|(delet|remov|drop|purg)\w*[^.\n]{0,80}\band (their|its|all) (associated|related|linked|child|dependent) \w+|(is|are|gets?|will be) (cleared|reset|discarded)|(is|are) left (untouched|unchanged|intact|as is)|(does|do) not move|keeps? the rest|(replacing|(and|or|also|which|then|that|it|this) replaces) (one|any|an existing|the existing|existing)|(is|are|gets?) (automatically )?cleaned up|(browser|server|service|process|session|container|daemon|app|application|page|and|also|then|which|it|this) restarts|will (be )?restart(ed)?|modifies [\w ]{0,20}\bdata)\b",
        ),
        compile(
            r"(?i)\b(fails?|failure|raises|throws?|exception|(is|are) skipped|yields? (an? )?(empty|error)|invalid|rejected|refuses?|not (supported|available|found|allowed)|unavailable|timed out|(returns?|an?) errors? (if|when|for)|errors? (if|when)|returns? (an? )?(empty|null|no)\b[\w ]{0,20}\b(if|when))\b",
        ),
        compile(
            r"(?i)\b(requires?|required permissions?|(only use|use only) (it )?(when|if)|supported (fields|values|formats|types|keys)|(is|are) excluded|only (scans|reads|checks|searches|covers|considers|includes|handles|processes|affects)|make sure (the user|that|you)|must (exist|be|have|match|start|end)|only (works|available|supports?|for)|only (the )?(provided|specified|given|listed) fields|(statements?|single \w+) only|(you )?must (provide|call|first|pass|specify)|credentials|rate[- ]limit\w*|not paginated|within allowed|cannot|can't|can not|unable to|does not support|doesn't support|no support for|(do not|don't) use (it|this)( tool)? (to|for)|(will )?only (appears?|applies|apply|returns?|shows?|runs?|works?|included|listed|visible) (if|when)|(is|are) ignored|(applies|apply|takes? effect|works?) (only )?once|not all [\w ]{1,30} supports?|(is|are) resolved (against|relative to)|after [\w`'\-]+ (has )?(returned|returns|succeeded|succeeds|completed))\b",
        ),
    ]
});

/// Words of a parameter description that say nothing its name and type do not.
pub(crate) const EMPTY_PARAMETER_WORDS: &[&str] = &[
    "array",
    "boolean",
    "get",
    "id",
    "identifier",
    "integer",
    "list",
    "name",
    "number",
    "object",
    "optional",
    "parameter",
    "required",
    "set",
    "specify",
    "string",
    "use",
    "value",
    "whether",
];

/// A parameter description with a unit, a format, a default or an example.
pub(crate) static PARAMETER_DETAIL: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"(?i)\b(default|e\.g\.|format|seconds|ms|milliseconds|bytes|example)\b")
});

/// A parameter description that says how it depends on another.
pub(crate) static PARAMETER_INTERACTION: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(when|if|only (used|applies)|required (when|for|if)|ignored|together with|combine|instead of|otherwise)\b",
    )
});

/// Verbs in a tool's name that change something: such a tool needs more words.
pub(crate) const SIDE_EFFECT_VERBS: &[&str] = &[
    "add", "cancel", "create", "delete", "deploy", "drop", "exec", "execute", "insert", "kill",
    "merge", "move", "patch", "pay", "post", "purchase", "put", "remove", "rename", "reset", "run",
    "send", "set", "update", "upload", "write",
];

/// A parameter name that takes a syntax: a filter, a pattern, a date, a range.
pub(crate) static SYNTAX_NAME: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)(^|_|[a-z])(filter|filters|expr|expression|selector|pattern|regex|glob|jql|cron|date|time|timestamp|since|until|range|dsl|duration|interval)s?($|_|[A-Z])",
    )
});

/// A parameter name whose value is one of a set the schema does not list.
pub(crate) static VALUES_NAME: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?i)(type|style|mode|kind|unit|format|path|filename|sha)$"));

/// Words that introduce an example, where a quoted name or a bracket need not be one.
pub(crate) static EXAMPLE_MARKER: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?i)(\be\.g\.|\beg\.|\bfor example\b|\bexamples?:|\bsuch as\b)"));

/// An example: "e.g.", "for example", "such as", a quoted value, a bracket.
pub(crate) static EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r#"(?i)(e\.g\.|eg\.|for example|example|such as|like ['"`{\[]|['"`][^'"`]{1,60}['"`]|\{|\[)"#,
    )
});

/// A format named precisely enough to write a value: "ISO 8601", "RFC3339", "YYYY-MM-DD".
pub(crate) static PRECISE_FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)(iso[ -]?\d{3,5}|rfc ?\d{3,5}|<[a-z_]+>[^<\s]{0,3}<[a-z_]+>|yyyy|hh:mm|epoch|unix|posix|seconds since|cron|css selector|xpath|jmespath|lucene|uuid|markdown|json|yaml|html|csv|base64|e\.164|e\.g\.|for example|example)|\b(promql|logql|traceql|metricsql|kql|sql|jql|cql|graphql|jsonpath|odata)\b|(?-i:\bin (?:[A-Z][\w.]*\s)+format\b)",
    )
});

/// A description of an object that names what it holds: its keys or fields, or a list of
/// them ("key-value pairs", "with longitude and latitude properties", "query, size, from").
pub(crate) static SHAPE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)(key[- ]value|\bmap(ping)? (of|from)\b|\bdictionary\b|\bpropert(y|ies)\b|\bfields?\b|\bkeys?\b|\w+, \w+,? (and|or) \w+|\w+, \w+, \w+|\b(coordinate|point|location)s?\b|\bhttp headers\b)",
    )
});

/// The word "format", which alone only hints at one ("the format of the date"); a format
/// named by a proper name ("in Yahoo Finance format") is [`PRECISE_FORMAT`].
pub(crate) static FORMAT_WORD: LazyLock<Regex> = LazyLock::new(|| compile(r"(?i)\bformat\b"));

/// A list of words above, for lookups: the lists are read for every word of every
/// description of a catalog.
pub(crate) type WordSet =
    LazyLock<std::collections::HashSet<&'static str, foldhash::fast::FixedState>>;

fn word_set(
    list: &'static [&'static str],
) -> std::collections::HashSet<&'static str, foldhash::fast::FixedState> {
    let mut set = std::collections::HashSet::with_hasher(foldhash::fast::FixedState::with_seed(0));
    set.extend(list.iter().copied());
    set
}

/// [`STOP`], for lookups.
pub(crate) static STOP_SET: WordSet = LazyLock::new(|| word_set(STOP));
/// [`FILLER`], for lookups.
pub(crate) static FILLER_SET: WordSet = LazyLock::new(|| word_set(FILLER));
/// [`VAGUE`], for lookups.
pub(crate) static VAGUE_SET: WordSet = LazyLock::new(|| word_set(VAGUE));
/// [`CONTEXT`], for lookups.
pub(crate) static CONTEXT_SET: WordSet = LazyLock::new(|| word_set(CONTEXT));
/// [`BOILERPLATE`], for lookups.
pub(crate) static BOILERPLATE_SET: WordSet = LazyLock::new(|| word_set(BOILERPLATE));
/// [`EMPTY_PARAMETER_WORDS`], for lookups.
pub(crate) static EMPTY_PARAMETER_SET: WordSet = LazyLock::new(|| word_set(EMPTY_PARAMETER_WORDS));
/// [`SIDE_EFFECT_VERBS`], for lookups.
pub(crate) static SIDE_EFFECT_SET: WordSet = LazyLock::new(|| word_set(SIDE_EFFECT_VERBS));

/// The cues a property's description shows, one bit each, as [`property_cues`] reads them.
pub(crate) mod cue {
    /// The first of the five [`super::LIMITATIONS`] kinds; kind `i` is `LIMITATION << i`.
    pub(crate) const LIMITATION: u16 = 1;
    /// All five limitation kinds.
    pub(crate) const LIMITATIONS: u16 = 0b1_1111;
    /// [`super::PARAMETER_DETAIL`].
    pub(crate) const DETAIL: u16 = 1 << 5;
    /// [`super::PARAMETER_INTERACTION`].
    pub(crate) const INTERACTION: u16 = 1 << 6;
    /// [`super::EXAMPLE`].
    pub(crate) const EXAMPLE: u16 = 1 << 7;
    /// [`super::PRECISE_FORMAT`].
    pub(crate) const PRECISE_FORMAT: u16 = 1 << 8;
    /// [`super::SHAPE`].
    pub(crate) const SHAPE: u16 = 1 << 9;
    /// [`super::FORMAT_WORD`].
    pub(crate) const FORMAT_WORD: u16 = 1 << 10;
    /// [`super::PRIOR_CALL`].
    pub(crate) const PRIOR_CALL: u16 = 1 << 11;
}

/// The place of each cue searched behind the literal screen, in [`screened`].
pub(crate) mod at {
    /// [`super::RETURNS`].
    pub(crate) const RETURNS: usize = 0;
    /// [`super::USE_GENERAL`].
    pub(crate) const USE_GENERAL: usize = 1;
    /// [`super::USE_CONDITION`].
    pub(crate) const USE_CONDITION: usize = 2;
    /// [`super::USE_ALTERNATIVE`].
    pub(crate) const USE_ALTERNATIVE: usize = 3;
    /// [`super::USE_HINT`].
    pub(crate) const USE_HINT: usize = 4;
    /// The first of the five [`super::LIMITATIONS`]; kind `i` is at `LIMITATION + i`.
    pub(crate) const LIMITATION: usize = 5;
    /// [`super::PARAMETER_DETAIL`].
    pub(crate) const DETAIL: usize = 10;
    /// [`super::PARAMETER_INTERACTION`].
    pub(crate) const INTERACTION: usize = 11;
    /// [`super::EXAMPLE`].
    pub(crate) const EXAMPLE: usize = 12;
    /// [`super::PRECISE_FORMAT`].
    pub(crate) const PRECISE_FORMAT: usize = 13;
    /// [`super::SHAPE`].
    pub(crate) const SHAPE: usize = 14;
    /// [`super::FORMAT_WORD`].
    pub(crate) const FORMAT_WORD: usize = 15;
    /// [`super::PRIOR_CALL`].
    pub(crate) const PRIOR_CALL: usize = 16;
}

/// The cues searched behind the literal screen, at their places in [`at`].
fn screened() -> [&'static Regex; 17] {
    let [l0, l1, l2, l3, l4] = LIMITATIONS.each_ref();
    [
        &RETURNS,
        &USE_GENERAL,
        &USE_CONDITION,
        &USE_ALTERNATIVE,
        &USE_HINT,
        l0,
        l1,
        l2,
        l3,
        l4,
        &PARAMETER_DETAIL,
        &PARAMETER_INTERACTION,
        &EXAMPLE,
        &PRECISE_FORMAT,
        &SHAPE,
        &FORMAT_WORD,
        &PRIOR_CALL,
    ]
}

/// The words each screened cue needs, read from the patterns the cues were compiled from,
/// in ASCII lower case: one pass of a literal automaton over a text says which cues can
/// match it, and only those are searched. Most descriptions hold the words of a few cues.
static SCREEN: LazyLock<Screen> =
    LazyLock::new(|| Screen::folded(&[&screened().map(Regex::as_str)]));

/// A text and the screened cues that may match it.
pub(crate) struct Cues<'t> {
    text: &'t str,
    possible: Patterns,
}

impl<'t> Cues<'t> {
    /// `text`, screened.
    pub(crate) fn of(text: &'t str) -> Cues<'t> {
        Cues {
            text,
            possible: SCREEN.possible(text).of(0),
        }
    }

    /// The text.
    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    /// Whether the cue at `at` (a place in [`at`]) matches the text: the same as its regular
    /// expression, which is not searched when the screen says it cannot match.
    pub(crate) fn has(&self, at: usize) -> bool {
        self.possible & 1 << at != 0 && screened().get(at).is_some_and(|re| re.is_match(self.text))
    }
}

/// The cues of [`property_cues`] besides the limitations, with their bits.
fn other_cues() -> [(u16, usize); 7] {
    [
        (cue::DETAIL, at::DETAIL),
        (cue::INTERACTION, at::INTERACTION),
        (cue::EXAMPLE, at::EXAMPLE),
        (cue::PRECISE_FORMAT, at::PRECISE_FORMAT),
        (cue::SHAPE, at::SHAPE),
        (cue::FORMAT_WORD, at::FORMAT_WORD),
        (cue::PRIOR_CALL, at::PRIOR_CALL),
    ]
}

/// The cues of a property's description, one [`cue`] bit each. Catalogs repeat their
/// property descriptions from tool to tool ("The page number", "Maximum results to
/// return"), so each thread remembers the cues of the texts it has read, by a hash seeded
/// at random for the process, and searches each text once.
pub(crate) fn property_cues(text: &str) -> u16 {
    use crate::analysis::memo::{self, Memo};
    use std::cell::RefCell;

    thread_local! {
        /// The most texts remembered per thread: about 8 MB.
        static SEEN: RefCell<Memo<u16>> = const { RefCell::new(Memo::new(1 << 19)) };
    }
    if text.is_empty() {
        return 0;
    }
    let key = memo::key(0, text);
    if let Some(cues) = SEEN.with(|seen| seen.borrow().get(key)) {
        return cues;
    }
    let mut cues = 0;
    let screened = Cues::of(text);
    for i in 0..LIMITATIONS.len() {
        if screened.has(at::LIMITATION + i) {
            cues |= cue::LIMITATION << i;
        }
    }
    for (bit, at) in other_cues() {
        if screened.has(at) {
            cues |= bit;
        }
    }
    SEEN.with(|seen| seen.borrow_mut().insert(key, cues));
    cues
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cue_compiles_and_the_word_lists_are_sorted() {
        for re in [
            &*SECTION,
            &*LEADING_LABEL,
            &*BOILERPLATE_TEXT,
            &*HTTP_ROUTE,
            &*RETURNS,
            &*USE_GENERAL,
            &*USE_CONDITION,
            &*USE_ALTERNATIVE,
            &*USE_HINT,
            &*PARAMETER_DETAIL,
            &*PARAMETER_INTERACTION,
            &*SYNTAX_NAME,
            &*VALUES_NAME,
            &*EXAMPLE,
            &*PRECISE_FORMAT,
            &*FORMAT_WORD,
            &*SHAPE,
        ] {
            assert!(!re.as_str().is_empty());
        }
        assert_eq!(LIMITATIONS.len(), 5);
        for list in [
            STOP,
            FILLER,
            VAGUE,
            BOILERPLATE,
            CONTEXT,
            EMPTY_PARAMETER_WORDS,
            SIDE_EFFECT_VERBS,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn cues_match_what_they_name() {
        assert!(RETURNS.is_match("Returns the forecast."));
        assert!(USE_CONDITION.is_match("Call list_projects first."));
        assert!(USE_ALTERNATIVE.is_match("For current conditions use get_weather instead."));
        assert!(LIMITATIONS[0].is_match("At most 100 results."));
        assert!(LIMITATIONS[1].is_match("Pass the cursor for the next page."));
        assert!(SYNTAX_NAME.is_match("start_date"));
        assert!(SYNTAX_NAME.is_match("fieldSelector"));
        assert!(!SYNTAX_NAME.is_match("city"));
        assert!(PRECISE_FORMAT.is_match("ISO 8601 date"));
    }

    #[test]
    fn property_cues_are_what_each_cue_finds_read_once_or_again() {
        let texts = [
            "",
            "Maximum number of results, e.g. 10. Ignored when cursor is set.",
            "Start date, ISO 8601 (YYYY-MM-DD).",
            "A map of field names to values",
            "The city",
        ];
        for text in texts.into_iter().chain(texts) {
            let cues = property_cues(text);
            for (i, re) in LIMITATIONS.iter().enumerate() {
                assert_eq!(
                    cues & (cue::LIMITATION << i) != 0,
                    re.is_match(text),
                    "{text}"
                );
            }
            for (bit, at) in other_cues() {
                let re = screened()[at];
                assert_eq!(
                    cues & bit != 0,
                    re.is_match(text),
                    "{text}: {}",
                    re.as_str()
                );
            }
        }
        assert_ne!(property_cues(texts[1]) & cue::INTERACTION, 0);
        assert_ne!(property_cues(texts[2]) & cue::PRECISE_FORMAT, 0);
    }

    #[test]
    fn a_screened_cue_matches_where_its_pattern_matches() {
        let texts = crate::analysis::screen::fixture_prose(&["servers", "quality"]);
        assert!(texts.len() > 5_000, "{} texts", texts.len());
        // The same texts in capitals, with underscores and line breaks for spaces, and with
        // the Kelvin sign for a `k`, which Unicode's case folding matches.
        let variants: Vec<String> = texts
            .iter()
            .step_by(7)
            .flat_map(|t| {
                [
                    t.to_uppercase(),
                    t.replace(' ', "_"),
                    t.replacen(' ', "\n", 3),
                    t.replace('k', "\u{212a}"),
                ]
            })
            .collect();
        let (mut matched, mut searched, mut all) = (0, 0, 0);
        for text in texts.iter().chain(&variants) {
            let cues = Cues::of(text);
            for (at, re) in screened().into_iter().enumerate() {
                let want = re.is_match(text);
                assert_eq!(cues.has(at), want, "cue {at} in {text:?}");
                matched += usize::from(want);
                searched += usize::from(cues.possible & 1 << at != 0);
                all += 1;
            }
        }
        assert!(matched > 5_000, "{matched} matches");
        // The screen leaves most searches out.
        assert!(searched < all / 2, "{searched} of {all} searched");
    }
}
