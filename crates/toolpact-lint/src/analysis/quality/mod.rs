//! What a tool's description does of the six things reviewers rate (purpose, usage
//! guidelines, limitations, parameter explanation, length, examples): the facts read from
//! the description and the top-level properties of the input schema, once per tool, and the
//! 0–5 score of each component that `docs/quality-rubric.md` defines.
//!
//! The rules of the description category report from these facts with their own thresholds;
//! the quality score of a check uses the default thresholds, [`Thresholds::default`], so that
//! scores compare across projects whatever their configuration.

pub(crate) mod cues;

use crate::analysis::words::{
    FILLER_WORDS, any_content_word, content_words, identifier_words,
    mentions_identifier as mentions, name_stems, stem,
};
use cues::{
    BOILERPLATE_SET, BOILERPLATE_TEXT, CONTEXT_SET, Cues, EMPTY_PARAMETER_SET, EXAMPLE_MARKER,
    FILLER_SET, HTTP_ROUTE, LEADING_LABEL, LIMITATIONS, SECTION, SIDE_EFFECT_SET, STOP_SET,
    SYNTAX_NAME, VAGUE_SET, VALUES_NAME, WordSet, at, cue, property_cues,
};
use serde_json::{Map, Value};
use toolpact::Tool;

/// What a description says, as far as the quality components are concerned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The description is missing or blank.
    pub empty: bool,
    /// Distinct words of the purpose (the text before any "Args:" or "Returns:" section)
    /// that the name does not say, leaving out filler, vague verbs, proper names and HTTP
    /// boilerplate; proper names named as the source ("from Datadog", "in Jira") add one.
    pub new_words: usize,
    /// Words of the purpose.
    pub purpose_words: usize,
    /// Every content word of the purpose is in the name, filler or boilerplate.
    pub restates_name: bool,
    /// The description has a `Returns:` section.
    pub returns_section: bool,
    /// The purpose's words beyond the name are only vague ones ("handles", "operations"), or
    /// the purpose is only an HTTP route (then `route_only` too).
    pub only_vague: bool,
    /// The purpose is only an HTTP route ("Make a POST request to /v1/…").
    pub route_only: bool,
    /// The description says what comes back ("Returns …", "Lists …").
    pub says_what_returns: bool,
    /// How much the description says about when to call the tool, 0–5 as the rubric scores
    /// usage guidelines.
    pub usage: u8,
    /// How many kinds of limitation it states (bounds, pagination, side effects, failures,
    /// requirements), in the description or a property description.
    pub limitation_kinds: u8,
    /// Top-level properties of the input schema.
    pub parameters: usize,
    /// Those explained beyond their name, in their own description or in the tool's.
    pub explained: usize,
    /// The properties no description explains, in schema order.
    pub unexplained: Vec<String>,
    /// Those with a unit, format, default, bound or example.
    pub detailed: usize,
    /// Those explained, and with a unit, format, default, bound or example.
    pub explained_detailed: usize,
    /// Those whose description says how they depend on another.
    pub interacting: usize,
    /// The tool's name starts or ends with a verb that changes something.
    pub changes_something: bool,
    /// Words of the whole description.
    pub words: usize,
    /// The properties whose value has a format or shape that no example or precise name
    /// shows, in schema order.
    pub missing_examples: Vec<String>,
}

/// The thresholds the scores use; each is an option of the rule that reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Thresholds {
    /// A purpose of at most this many words that names one thing beyond the name, and
    /// nothing that comes back, is unclear.
    pub short_purpose_words: usize,
    /// Words a description of a tool with parameters needs at least.
    pub base_words: usize,
    /// Words a description of a tool without parameters needs at least.
    pub words_without_parameters: usize,
    /// More words it needs for each parameter no description explains (one for each that one
    /// does; up to eight parameters).
    pub words_per_parameter: usize,
    /// More words it needs when the tool changes something.
    pub side_effect_words: usize,
    /// The share of parameters, in percent, that must be explained.
    pub explained_percent: usize,
    /// A description of more words than this is too long.
    pub long_words: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            short_purpose_words: 6,
            base_words: 7,
            words_without_parameters: 4,
            words_per_parameter: 2,
            side_effect_words: 8,
            explained_percent: 70,
            long_words: 900,
        }
    }
}

/// Whether a description is too brief or too long for what the tool does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LengthIssue {
    /// Fewer words than the tool needs.
    TooBrief {
        /// Words of the description.
        words: usize,
        /// Words the tool needs.
        needed: usize,
    },
    /// More words than anyone reads.
    TooLong {
        /// Words of the description.
        words: usize,
    },
}

/// The six component scores of one tool, 0–5 each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Scores {
    /// Purpose.
    pub purpose: u8,
    /// Usage guidelines.
    pub usage: u8,
    /// Limitations.
    pub limitations: u8,
    /// Parameter explanation.
    pub parameters: u8,
    /// Length.
    pub length: u8,
    /// Examples.
    pub examples: u8,
}

impl Scores {
    /// The six scores in the rubric's order.
    pub(crate) fn components(&self) -> [u8; 6] {
        [
            self.purpose,
            self.usage,
            self.limitations,
            self.parameters,
            self.length,
            self.examples,
        ]
    }
}

impl Facts {
    /// The purpose score.
    pub(crate) fn purpose_score(&self, t: &Thresholds) -> u8 {
        if self.empty {
            0
        } else if self.restates_name {
            // A `Returns:` section can say what the restated purpose does not.
            if self.returns_section { 3 } else { 0 }
        } else if self.only_vague {
            1
        } else if self.new_words == 0
            || (self.new_words <= 1
                && self.purpose_words <= t.short_purpose_words
                && !self.says_what_returns)
        {
            2
        } else if !self.says_what_returns {
            3
        } else if self.new_words >= 10 {
            5
        } else {
            4
        }
    }

    /// The limitations score.
    pub(crate) fn limitations_score(&self) -> u8 {
        match self.limitation_kinds {
            0 => 0,
            1 => 2,
            2 => 3,
            3 | 4 => 4,
            _ => 5,
        }
    }

    /// The parameter explanation score.
    pub(crate) fn parameters_score(&self, t: &Thresholds) -> u8 {
        if self.parameters == 0 {
            return 5;
        }
        if self.explained * 100 >= t.explained_percent * self.parameters {
            let detailed = self.detailed * 2 >= self.parameters;
            return 3 + u8::from(detailed) + u8::from(detailed && self.interacting > 0);
        }
        if self.explained * 2 >= self.parameters {
            2
        } else if self.explained > 0 {
            1
        } else {
            0
        }
    }

    /// Whether the description is too brief or too long for what the tool does.
    pub(crate) fn length_issue(&self, t: &Thresholds) -> Option<LengthIssue> {
        if self.words > t.long_words {
            return Some(LengthIssue::TooLong { words: self.words });
        }
        let needed = self.needed_words(t);
        // The whole description counts: an `Args:` section that explains the parameters is
        // part of what the model reads, and reviewers count it.
        (self.words < needed).then_some(LengthIssue::TooBrief {
            words: self.words,
            needed,
        })
    }

    /// The words a description of this tool needs at least.
    pub(crate) fn needed_words(&self, t: &Thresholds) -> usize {
        let base = if self.parameters == 0 {
            t.words_without_parameters
        } else {
            let counted = self.parameters.min(8);
            let explained = self.explained.min(counted);
            // An explained parameter needs one word, never more than an unexplained one; one
            // that also gives its unit, format, default or bounds needs none.
            let detailed = self.explained_detailed.min(explained);
            t.base_words
                + t.words_per_parameter * (counted - explained)
                + t.words_per_parameter.min(1) * (explained - detailed)
        };
        base + if self.changes_something {
            t.side_effect_words
        } else {
            0
        }
    }

    /// The length score.
    pub(crate) fn length_score(&self, t: &Thresholds) -> u8 {
        if self.empty {
            return 0;
        }
        match self.length_issue(t) {
            Some(LengthIssue::TooBrief { words, needed }) if words * 2 < needed => 1,
            Some(_) => 2,
            None => 4,
        }
    }

    /// The examples score.
    pub(crate) fn examples_score(&self) -> u8 {
        if self.empty {
            0
        } else if self.missing_examples.is_empty() {
            5
        } else {
            2
        }
    }

    /// Every component's score.
    pub(crate) fn scores(&self, t: &Thresholds) -> Scores {
        Scores {
            purpose: self.purpose_score(t),
            usage: if self.empty { 0 } else { self.usage },
            limitations: self.limitations_score(),
            parameters: self.parameters_score(t),
            length: self.length_score(t),
            examples: self.examples_score(),
        }
    }
}

/// Whether every content word of `description` is one of `known`, "get" or an empty noun
/// ("data", "information"): the description says nothing beyond the name.
pub(crate) fn restates(description: &str, known: &[String]) -> bool {
    // The words are read up to the first that says something of its own.
    let mut any = false;
    let says_more = any_content_word(description, |w| {
        any = true;
        !(known.contains(&w) || w == "get" || FILLER_WORDS.contains(&w.as_str()))
    });
    any && !says_more
}

/// Whether a tool's whole description says nothing beyond its name and title, as
/// `description-restates-name` reports it.
pub(crate) fn restates_name_or_title(tool: &Tool) -> bool {
    let Some(description) = tool.description.as_deref().map(str::trim) else {
        return false;
    };
    let mut known = name_stems(&tool.name);
    for title in [
        tool.title.as_deref(),
        tool.annotations.as_ref().and_then(|a| a.title.as_deref()),
    ]
    .into_iter()
    .flatten()
    {
        known.extend(content_words(title));
    }
    restates(description, &known)
}

/// A word as the purpose analysis compares it: stemmed, with the verbs a name and its
/// description use for the same action brought together.
fn normal(word: &str) -> String {
    let stemmed = stem(word);
    match stemmed.as_str() {
        "show" | "read" => "get".to_owned(),
        "patch" => "update".to_owned(),
        "run" | "exec" => "execute".to_owned(),
        _ => stemmed,
    }
}

/// [`normal`] with a verb and its noun brought together ("generate" and "generation",
/// "validate" and "validation"), for comparing a purpose's words with the name's.
fn root(normal: &str) -> &str {
    ["ation", "ate"]
        .iter()
        .find_map(|suffix| normal.strip_suffix(suffix).filter(|rest| rest.len() > 3))
        .unwrap_or(normal)
}

/// The words of free text as written: runs of ASCII letters and digits that start with a
/// letter, apostrophes kept ("don't").
fn raw_words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let inside = c.is_ascii_alphanumeric() || c == '\'';
        match start {
            None if c.is_ascii_alphabetic() => start = Some(i),
            Some(s) if !inside => {
                out.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The purpose: the description up to its first "Args:", "Returns:" or similar section,
/// without a leading product tag or heading ("Notion | …", "Purpose: …").
fn purpose_text(description: &str) -> &str {
    let text = SECTION
        .find(description)
        .map_or(description, |m| &description[..m.start()]);
    LEADING_LABEL.find(text).map_or(text, |m| &text[m.end()..])
}

/// The text a description gives a parameter on a line of its own, as in an `Args:` section
/// ("  query: The search query", "- `limit` (int): How many").
fn argument_line<'a>(description: &'a str, name: &str) -> Option<&'a str> {
    description.lines().find_map(|line| {
        let line = line
            .trim_start()
            .trim_start_matches(['-', '*'])
            .trim_start()
            .trim_start_matches('`');
        let rest = line
            .strip_prefix(name)?
            .trim_start_matches('`')
            .trim_start();
        let rest = match rest.strip_prefix('(') {
            Some(typed) => typed.split_once(')')?.1.trim_start(),
            None => rest,
        };
        rest.strip_prefix(':')
            .or_else(|| rest.strip_prefix(" - "))
            .map(str::trim)
    })
}

/// Whether the words of a description, in [`normal`] form, hold every word of a parameter's
/// name of two words or more: "file paths" for `filePaths`, "an iteration by public ID" for
/// `iterationPublicId`.
fn mentions_words(description_words: &[String], name: &str) -> bool {
    let name_words = identifier_words(name);
    name_words.len() >= 2
        && name_words
            .iter()
            .all(|w| description_words.contains(&normal(w)))
}

/// The top-level properties of a tool's input schema, in schema order.
fn properties(tool: &Tool) -> impl Iterator<Item = (&String, &Map<String, Value>)> {
    static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
    tool.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, schema)| (name, schema.as_object().unwrap_or(&EMPTY)))
}

/// Whether `schema` has one of `keywords`. A schema has few keys: reading them once costs
/// less than looking each keyword up, which hashes it.
fn has_any_key(schema: &Map<String, Value>, keywords: &[&str]) -> bool {
    schema.keys().any(|k| keywords.contains(&k.as_str()))
}

/// A property schema as one type: an `anyOf` of one type and `null` is that type.
fn single_type(schema: &Map<String, Value>) -> (Option<&str>, &Map<String, Value>) {
    if let Some(t) = schema.get("type") {
        let t = match t {
            Value::String(s) => Some(s.as_str()),
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
            _ => None,
        };
        return (t, schema);
    }
    if let Some(Value::Array(alternatives)) = schema.get("anyOf") {
        let mut real = alternatives
            .iter()
            .filter_map(Value::as_object)
            .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"));
        if let (Some(one), None) = (real.next(), real.next()) {
            return (one.get("type").and_then(Value::as_str), one);
        }
    }
    (None, schema)
}

/// Whether an object schema has properties and every one of them is described.
fn has_described_properties(schema: &Map<String, Value>) -> bool {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|ps| {
            !ps.is_empty()
                && ps.values().all(|p| {
                    p.get("description")
                        .and_then(Value::as_str)
                        .is_some_and(|d| !d.trim().is_empty())
                })
        })
}

/// Whether an object's declared properties show its shape: every one is described, or none
/// takes a format of its own (`{"projectKey": {"type": "string"}}` needs no example). Read one
/// level down, as a reviewer reads the schema: a nested object or list counts only when its
/// properties are described.
fn shaped_by_properties(
    schema: &Map<String, Value>,
    description: &str,
    shows: &DescriptionShows<'_, '_>,
) -> bool {
    if has_described_properties(schema) {
        return true;
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return false;
    };
    !properties.is_empty()
        && properties.iter().all(|(name, property)| {
            let Some(property) = property.as_object() else {
                return false;
            };
            let (kind, resolved) = single_type(property);
            match kind {
                Some("object") => has_described_properties(resolved),
                // A list of plain values has no shape to show; a list of objects has the
                // shape of its items.
                Some("array") => {
                    resolved
                        .get("items")
                        .and_then(Value::as_object)
                        .is_none_or(|items| {
                            items.get("type").and_then(Value::as_str) != Some("object")
                                || has_described_properties(items)
                        })
                }
                _ => {
                    let own = property
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .trim();
                    !lacks_example(
                        name,
                        property,
                        (own, property_cues(own)),
                        description,
                        shows,
                        true,
                    )
                }
            }
        })
}

/// Whether a property description says nothing its name and type do not.
fn restates_parameter(name: &str, tool: &[String], description: &str) -> bool {
    let name_words: Vec<String> = identifier_words(name).iter().map(|w| normal(w)).collect();
    let words = raw_words(description);
    // A short description that adds only the tool's own words ("Repository name" of
    // `create_repository`) restates too.
    let short = words.len() <= 4;
    words.into_iter().all(|w| {
        let lower = w.to_ascii_lowercase();
        if STOP_SET.contains(lower.as_str()) {
            return true;
        }
        let n = normal(&lower);
        name_words.contains(&n)
            || (short && tool.iter().any(|t| root(t) == root(&n)))
            || FILLER_SET.contains(n.as_str())
            || EMPTY_PARAMETER_SET.contains(n.as_str())
    })
}

/// Whether the tool's description shows an example or a precise format, each searched for
/// once per tool, when a property first asks.
struct DescriptionShows<'c, 't> {
    cues: &'c Cues<'t>,
    example: std::cell::OnceCell<bool>,
    precise_format: std::cell::OnceCell<bool>,
}

impl<'c, 't> DescriptionShows<'c, 't> {
    fn new(cues: &'c Cues<'t>) -> Self {
        DescriptionShows {
            cues,
            example: std::cell::OnceCell::new(),
            precise_format: std::cell::OnceCell::new(),
        }
    }

    /// Whether the description shows an example ([`EXAMPLE`](cues::EXAMPLE)).
    fn example(&self) -> bool {
        *self.example.get_or_init(|| self.cues.has(at::EXAMPLE))
    }

    /// Whether the description names a precise format
    /// ([`PRECISE_FORMAT`](cues::PRECISE_FORMAT)).
    fn precise_format(&self) -> bool {
        *self
            .precise_format
            .get_or_init(|| self.cues.has(at::PRECISE_FORMAT))
    }
}

/// Whether a property's value has a format or shape that the texts around it never show. An
/// object (or a list of objects) whose own description names what it holds ("a query DSL
/// object that can include query, size, from, sort", "as key-value pairs") is shown, and so
/// is an optional one of a tool whose description shows examples of its calls. `own` is the
/// property's description, `cues` what it shows ([`property_cues`]).
fn lacks_example(
    name: &str,
    schema: &Map<String, Value>,
    (own, cues): (&str, u16),
    description: &str,
    shows: &DescriptionShows<'_, '_>,
    required: bool,
) -> bool {
    let (kind, schema) = single_type(schema);
    if has_any_key(schema, &["enum", "const", "examples", "pattern", "oneOf"]) {
        return false;
    }
    let in_tool = mentions(description, name);
    let example_shown = || cues & cue::EXAMPLE != 0 || (in_tool && shows.example());
    let said = || cues & cue::SHAPE != 0 || (!required && shows.example());
    match kind {
        // An optional object that declares no properties (no `properties` keyword, or an
        // empty one) and says nothing of what it holds asks for no particular shape: there
        // is nothing to show. A required one must still be built.
        Some("object")
            if !required
                && own.is_empty()
                && schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_none_or(Map::is_empty) =>
        {
            false
        }
        Some("object") => {
            !shaped_by_properties(schema, description, shows) && !example_shown() && !said()
        }
        Some("array") => {
            let items = schema.get("items").and_then(Value::as_object);
            items.is_some_and(|items| {
                items.get("type").and_then(Value::as_str) == Some("object")
                    && !shaped_by_properties(items, description, shows)
            }) && !example_shown()
                && !said()
        }
        Some("string") | None => {
            let format = schema.get("format").and_then(Value::as_str);
            if matches!(
                format,
                Some("date" | "date-time" | "time" | "uri" | "email" | "uuid")
            ) {
                return false;
            }
            // `time_interval_name` names a time interval; it is not a time.
            let names_a_thing = identifier_words(name).last().is_some_and(|w| {
                matches!(
                    w.as_str(),
                    "name" | "title" | "label" | "id" | "ids" | "description"
                )
            });
            let takes_format = (SYNTAX_NAME.is_match(name) && !names_a_thing)
                || (VALUES_NAME.is_match(name) && own.is_empty())
                || cues & cue::FORMAT_WORD != 0;
            let format_shown =
                cues & cue::PRECISE_FORMAT != 0 || (in_tool && shows.precise_format());
            takes_format && !format_shown && !example_shown()
        }
        _ => false,
    }
}

/// Reads what a tool's description and input schema say, for the quality components.
pub(crate) fn assess(tool: &Tool) -> Facts {
    let description = tool.description.as_deref().unwrap_or("").trim();
    if description.is_empty() {
        let parameters = properties(tool).count();
        return Facts {
            empty: true,
            parameters,
            unexplained: properties(tool).map(|(n, _)| n.clone()).collect(),
            ..Facts::default()
        };
    }
    // Boilerplate every tool of a server carries is not counted: it says nothing of this one.
    let boilerplate: usize = BOILERPLATE_TEXT
        .find_iter(description)
        .map(|m| raw_words(m.as_str()).len())
        .sum();
    let mut facts = Facts {
        words: raw_words(description).len().saturating_sub(boilerplate),
        ..Facts::default()
    };
    let cues = Cues::of(description);
    read_purpose(tool, &cues, &mut facts);
    facts.usage = usage_level(&cues);
    facts.limitation_kinds = limitation_kinds(tool, &cues);
    read_parameters(tool, &cues, &mut facts);
    facts.changes_something = identifier_words(&tool.name)
        .iter()
        .any(|w| SIDE_EFFECT_SET.contains(w.as_str()));
    facts
}

/// How much a description says about when to call the tool, 0–5.
fn usage_level(cues: &Cues<'_>) -> u8 {
    let alternative = cues.has(at::USE_ALTERNATIVE);
    let condition = cues.has(at::USE_CONDITION);
    match (alternative, condition) {
        (true, true) => 5,
        (true, false) => 4,
        (false, true) => 3,
        _ if cues.has(at::USE_GENERAL) => 2,
        _ if cues.has(at::USE_HINT) => 1,
        _ => 0,
    }
}

/// Fills in what the purpose says.
fn read_purpose(tool: &Tool, cues: &Cues<'_>, facts: &mut Facts) {
    let description = cues.text();
    let name: Vec<String> = identifier_words(&tool.name)
        .iter()
        .map(|w| root(&normal(w)).to_owned())
        .collect();
    let purpose = BOILERPLATE_TEXT.replace_all(purpose_text(description), " ");
    let purpose = purpose.as_ref();
    // A `Returns:` section says what comes back when it says more than the name
    // ("Returns: The updated service" of `update_service` does not).
    let sections: Vec<_> = SECTION.captures_iter(description).collect();
    facts.returns_section = sections.iter().enumerate().any(|(i, c)| {
        let (Some(title), Some(whole)) = (c.get(1), c.get(0)) else {
            return false;
        };
        let end = sections
            .get(i + 1)
            .and_then(|next| next.get(0))
            .map_or(description.len(), |m| m.start());
        title.as_str().to_ascii_lowercase().starts_with("return")
            && says_beyond_name(&description[whole.end()..end], &name)
    });
    let words = raw_words(purpose);
    facts.purpose_words = words.len();
    facts.says_what_returns = cues.has(at::RETURNS);
    let is_in = |set: &WordSet, w: &str| set.contains(w);
    // In a purpose Written In Title Case a capital says nothing of a proper name.
    let capitalised = words
        .iter()
        .skip(1)
        .filter(|w| w.len() > 3 && w.starts_with(|c: char| c.is_ascii_uppercase()))
        .count();
    let long = words.iter().skip(1).filter(|w| w.len() > 3).count();
    let title_case = capitalised >= 3 && capitalised * 5 >= long * 3;
    let mut beyond_name = 0;
    let mut vague = 0;
    let mut proper_names = 0;
    let mut new: Vec<String> = Vec::new();
    let mut lower = String::new();
    for (i, word) in words.iter().enumerate() {
        lower.clear();
        lower.push_str(word);
        lower.make_ascii_lowercase();
        if is_in(&STOP_SET, &lower) {
            continue;
        }
        let n = normal(&lower);
        if in_name(&name, &n, false)
            || is_in(&FILLER_SET, &n)
            || n == "get"
            || is_in(&BOILERPLATE_SET, &n)
        {
            continue;
        }
        beyond_name += 1;
        // A capitalised word after the first, or an acronym, is a proper name ("Datadog",
        // "GCP"): it says where, not what.
        let proper = (i > 0 && !title_case && word.starts_with(|c: char| c.is_ascii_uppercase()))
            || (word.len() > 1 && word.bytes().all(|b| b.is_ascii_uppercase()));
        if is_in(&VAGUE_SET, &n) {
            vague += 1;
        } else if proper {
            // A source or a place named after "from", "using", "via" or "in" says where the
            // tool acts, which the rubric counts ("Get list of dashboards from Datadog").
            // After "in", a format or a time zone is no source ("in JSON", "in UTC"); a
            // place is ("in AWS", "in Jira").
            let format = [
                "ASCII", "CSV", "GMT", "HTML", "ISO", "JSON", "MD", "PDF", "TSV", "UTC", "UTF",
                "XML", "YAML",
            ]
            .contains(word);
            if i > 0
                && ["from", "using", "via", "in"]
                    .iter()
                    .any(|p| words[i - 1].eq_ignore_ascii_case(p))
                && !(format && words[i - 1].eq_ignore_ascii_case("in"))
            {
                proper_names += 1;
            }
        } else if !is_in(&CONTEXT_SET, &n) && !new.contains(&n) {
            new.push(n);
        }
    }
    facts.new_words = new.len() + usize::from(proper_names > 0);
    facts.restates_name = beyond_name == 0;
    facts.route_only = HTTP_ROUTE.is_match(purpose.trim());
    facts.only_vague = (new.is_empty() && vague > 0 && vague == beyond_name) || facts.route_only;
}

/// Whether a text names something beyond the tool's name (`name`, as roots) and filler words.
fn says_beyond_name(text: &str, name: &[String]) -> bool {
    raw_words(text).iter().any(|word| {
        identifier_words(word).iter().any(|part| {
            // The words of an identifier come lowercased.
            let n = normal(part);
            !STOP_SET.contains(n.as_str())
                && !FILLER_SET.contains(n.as_str())
                && !VAGUE_SET.contains(n.as_str())
                && !in_name(name, &n, true)
        })
    })
}

/// Whether the word `n` (lower case, in normal form) is one of the name's words (`name`, as
/// roots): the same root, or with `prefixes` also a word the name's word begins ("updated"
/// for `update`), or the other way round.
fn in_name(name: &[String], n: &str, prefixes: bool) -> bool {
    let r = root(n);
    name.iter().any(|w| {
        w == r
            || (prefixes
                && ((r.len() >= 4 && w.starts_with(r))
                    || (w.len() >= 4 && r.starts_with(w.as_str()))))
    })
}

/// How many kinds of limitation the description and the property descriptions state.
fn limitation_kinds(tool: &Tool, cues: &Cues<'_>) -> u8 {
    let mut kinds = properties(tool)
        .filter_map(|(_, p)| p.get("description").and_then(Value::as_str))
        .fold(0, |kinds, text| {
            kinds | property_cues(text.trim()) & cue::LIMITATIONS
        });
    for i in 0..LIMITATIONS.len() {
        let bit = cue::LIMITATION << i;
        if kinds & bit == 0 && cues.has(at::LIMITATION + i) {
            kinds |= bit;
        }
    }
    u8::try_from(kinds.count_ones()).unwrap_or(u8::MAX)
}

/// Fills in what the parameters' descriptions and the tool's say of the parameters.
fn read_parameters(tool: &Tool, description_cues: &Cues<'_>, facts: &mut Facts) {
    let description = description_cues.text();
    let tool_words: Vec<String> = identifier_words(&tool.name)
        .iter()
        .map(|w| normal(w))
        .collect();
    // The description's words, read only when a parameter needs them.
    let mut description_words: Option<Vec<String>> = None;
    let shows = DescriptionShows::new(description_cues);
    // Each parameter that lacks an example, and whether its format is a minor one
    // ([`takes_named_format`]); whether a parameter's description or schema shows an example.
    let mut gaps: Vec<(String, bool)> = Vec::new();
    let mut shown = false;
    let required_names = tool.input_schema.get("required").and_then(Value::as_array);
    for (name, schema) in properties(tool) {
        facts.parameters += 1;
        let own = schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim();
        let cues = property_cues(own);
        // The tool's description explains a parameter when it names it and, on a line of its
        // own as in an `Args:` section, says more than the name. An object that only wraps
        // described properties is explained by them.
        let explained = (!own.is_empty() && !restates_parameter(name, &tool_words, own))
            || match argument_line(description, name) {
                Some(text) => !restates_parameter(name, &tool_words, text),
                None => {
                    mentions(description, name)
                        || (name.len() > 4
                            && mentions_words(
                                description_words.get_or_insert_with(|| {
                                    raw_words(description).iter().map(|w| normal(w)).collect()
                                }),
                                name,
                            ))
                }
            }
            || (single_type(schema).0 == Some("object")
                && has_described_properties(single_type(schema).1));
        if explained {
            facts.explained += 1;
        } else {
            facts.unexplained.push(name.clone());
        }
        if has_any_key(
            schema,
            &[
                "enum", "default", "format", "pattern", "examples", "minimum", "maximum",
            ],
        ) || cues & cue::DETAIL != 0
        {
            facts.detailed += 1;
            if explained {
                facts.explained_detailed += 1;
            }
        }
        if cues & cue::INTERACTION != 0 {
            facts.interacting += 1;
        }
        if cues & cue::PRIOR_CALL != 0 {
            // The value comes from another call: an order of calls, as "call X first" is.
            facts.usage = match facts.usage {
                4 | 5 => 5,
                u => u.max(3),
            };
        }
        let required =
            required_names.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name.as_str())));
        if lacks_example(name, schema, (own, cues), description, &shows, required) {
            let text = matches!(single_type(schema).0, Some("string") | None);
            gaps.push((name.clone(), text && !takes_named_format(name, cues)));
        }
        shown |= schema.contains_key("examples")
            || (cues & cue::EXAMPLE != 0 && EXAMPLE_MARKER.is_match(own));
    }
    // An undescribed path, file name, type or mode is a minor format: a tool that shows an
    // example of its other inputs has shown the main ones (the rubric's 4), and only a tool
    // that shows none lacks examples for it.
    let main_shown = gaps.iter().any(|(_, minor)| *minor)
        && (shown || shows.example() && EXAMPLE_MARKER.is_match(description));
    facts.missing_examples = gaps
        .into_iter()
        .filter(|(_, minor)| !(*minor && main_shown))
        .map(|(name, _)| name)
        .collect();
}

/// Whether a string parameter's format is said by its name (a filter, a date, a range…) or its
/// description ("the date format"), rather than only guessed from a name such as `path` or
/// `type` with no description.
fn takes_named_format(name: &str, cues: u16) -> bool {
    SYNTAX_NAME.is_match(name) || cues & cue::FORMAT_WORD != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, description: &str, schema: Value) -> Tool {
        Tool::new(name, description, schema)
    }

    fn no_input() -> Value {
        json!({"type": "object"})
    }

    #[test]
    fn purpose_tells_a_definite_thing_from_a_vague_one() {
        let t = Thresholds::default();
        let vague = assess(&tool(
            "workspace_request",
            "Handles requests for the workspace.",
            no_input(),
        ));
        assert!(vague.purpose_score(&t) <= 2, "{vague:?}");
        let utility = assess(&tool(
            "data_ops",
            "Utility for data operations.",
            no_input(),
        ));
        assert_eq!(utility.purpose_score(&t), 1, "{utility:?}");
        let echo = assess(&tool("get_weather", "Gets the weather.", no_input()));
        assert_eq!(echo.purpose_score(&t), 0);
        let clear = assess(&tool(
            "list_pull_requests",
            "Lists the open pull requests of a repository, with their number, title and author.",
            no_input(),
        ));
        assert!(clear.purpose_score(&t) >= 4, "{clear:?}");
        let product_only = assess(&tool(
            "list_databases",
            "List available ClickHouse databases",
            no_input(),
        ));
        assert_eq!(product_only.purpose_score(&t), 2, "{product_only:?}");
    }

    #[test]
    fn usage_levels_follow_the_rubric() {
        assert_eq!(
            usage_level(&Cues::of("Returns the forecast for a city.")),
            0
        );
        assert_eq!(usage_level(&Cues::of("Use this to look up a customer.")), 2);
        assert_eq!(
            usage_level(&Cues::of(
                "Call this when the user asks about weather to come."
            )),
            3
        );
        assert_eq!(
            usage_level(&Cues::of(
                "Call this when the user asks about weather; for today use get_weather instead."
            )),
            5
        );
    }

    #[test]
    fn usage_guidance_is_recognised_and_lookalikes_are_not() {
        for text in [
            "Use this when you need gift ideas.",
            "Call this tool to create a ticket.",
            "Use only after the user confirmed.",
            "Call search_foods first and pass its foodId.",
            "Call lookup first.",
            "Search products. Do not call it for general questions.",
            "Don't use this for refunds.",
            "Creates a reminder when the user asks to be reminded.",
            "Use it whenever a date is mentioned.",
            "Use this tool to: - Validate templates",
            "Usage: if a query has timed out, cancel it.",
            "Use ha_get_zone() to find the zone_id of the zone.",
            "MANDATORY after generating or editing code.",
            "AI agents can use this operation to define feature toggles.",
            "Partially updates a resource. Use `jq` param to filter response fields.",
            "Uploads a script.\n## Usage Tips\n- Store scripts in folders",
            "When used without an insight_id, it returns a list of all insights.",
            "Validates a template. Typical workflow: validate, then deploy.",
            "Lists the papers stored locally. Set compact=true to return their ids only.",
            "Records feedback for a prior `firecrawl_search` by its searchId.",
            "Replaces one page. Use list_pages/get_page first to find the target page.",
            "Full workflow validation. Essential before deploy.",
            "Read or replace the clipboard. Pass text to set it, omit it to read the clipboard.",
            "Override the location. Omit latitude and longitude to clear.",
            "Finds code references, helping agents determine the scope of a cleanup.",
        ] {
            assert!(usage_level(&Cues::of(text)) >= 2, "{text}");
        }
        for text in [
            "Returns the daily weather forecast for a city for the next 1 to 7 days.",
            "Gets the call log of the phone.",
            "Searches the food database and returns foods with their calories.",
            "Uses the default account.",
            "Gets the CPU usage: percent per core.",
            "Lists the API keys used by agents.",
            "The email is mandatory for new accounts.",
            "Demonstrates how annotations can be used to provide metadata.",
            "Returns the usage of a bucket.",
            "Validate workflow by ID. Checks nodes, connections, expressions.",
            "Set the value of a cell.",
            "Returns the previous version of a page.",
        ] {
            assert!(usage_level(&Cues::of(text)) <= 1, "{text}");
        }
    }

    #[test]
    fn a_parameter_whose_value_comes_from_another_call_sets_an_order() {
        let usage = |description: &str, property: &str| {
            let schema = json!({"type": "object", "properties": {"target": {"type": "string", "description": property}}});
            assess(&tool("a_tool", description, schema)).usage
        };
        let plain = "Reads the state of the target.";
        for (property, level) in [
            (
                "The device to use. Use mobile_list_available_devices to find which devices are available.",
                3,
            ),
            (
                "The connection to run the operation against. Use the id returned by one of the connect tools.",
                3,
            ),
            ("Name from describe_sheet.", 3),
            ("The name of the sheet.", 0),
            ("Data returned to the caller.", 0),
            ("Copies values from the source range.", 0),
        ] {
            assert_eq!(usage(plain, property), level, "{property}");
        }
        let alternative = "Removes a slicer. For tables use delete_table.";
        assert_eq!(usage(alternative, "Name from describe_sheet."), 5);
    }

    #[test]
    fn limitations_count_kinds_in_the_tool_and_its_properties() {
        let none = assess(&tool("search_issues", "Searches issues.", no_input()));
        assert_eq!(none.limitation_kinds, 0);
        let two = assess(&tool(
            "search_issues",
            "Searches issues. Returns at most 100 results.",
            json!({"type": "object", "properties": {"cursor": {"type": "string", "description": "Cursor of the next page"}}}),
        ));
        assert_eq!(two.limitation_kinds, 2);
        // What the tool cannot do, or is not for, is a limitation.
        for text in [
            "Reads a page. It cannot read pages behind a login.",
            "Gets a camera image. Do not use it to inspect the camera's state.",
            "Lists API versions. Custom resources only appear if their CRDs are installed.",
            "Lists resources. For nodes, the namespace is ignored.",
            "Submits the selection after orchestrator-start returned its options.",
        ] {
            assert_eq!(
                assess(&tool("get_page", text, no_input())).limitation_kinds,
                1,
                "{text}"
            );
        }
    }

    #[test]
    fn parameters_restating_their_name_are_unexplained() {
        let facts = assess(&tool(
            "get_thing",
            "Gets one thing by its id and returns it.",
            json!({"type": "object", "properties": {
                "id": {"type": "string", "description": "The id"},
                "query": {"type": "string", "description": "Query string"},
                "region": {"type": "string", "description": "AWS region, such as us-east-1"}
            }}),
        ));
        assert_eq!(facts.parameters, 3);
        assert_eq!(facts.unexplained, ["query"], "{facts:?}");
    }

    #[test]
    fn formatted_inputs_need_an_example_or_a_precise_format() {
        let facts = assess(&tool(
            "list_events",
            "Lists the events of a calendar.",
            json!({"type": "object", "properties": {
                "start_date": {"type": "string", "description": "Start of the range"},
                "end_date": {"type": "string", "description": "End, as an ISO 8601 date"},
                "filter": {"type": "string", "description": "Filter, e.g. status:open"},
                "request": {"type": "object"}
            }, "required": ["request"]}),
        ));
        assert_eq!(facts.missing_examples, ["start_date", "request"]);
    }

    #[test]
    fn an_undescribed_path_lacks_an_example_only_in_a_tool_that_shows_none() {
        let schema = |since: &str| {
            json!({"type": "object", "properties": {
                "repo_path": {"type": "string"},
                "mode": {"type": "string"},
                "since": {"type": "string", "description": since}
            }})
        };
        let missing = |description: &str, since: &str| {
            assess(&tool("git_log", description, schema(since))).missing_examples
        };
        // Another input's example shows the main formats; a path or a mode is a minor one.
        assert!(missing("Shows the commit log.", "Start, e.g. '2 weeks ago'").is_empty());
        assert_eq!(
            missing(
                "Shows the commit log. For example: git_log(repo_path=\"/src\")",
                "Start of the log"
            ),
            ["since"]
        );
        // Nothing shows an example, and a quoted name is not one: every gap counts, in
        // schema order.
        for description in ["Shows the commit log.", "Shows the commit log of `main`."] {
            assert_eq!(
                missing(description, "Start of the log"),
                ["repo_path", "mode", "since"]
            );
        }
    }

    #[test]
    fn length_is_judged_against_parameters_and_side_effects() {
        let t = Thresholds::default();
        let brief = assess(&tool(
            "delete_branch",
            "Delete branch.",
            json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}}}),
        ));
        assert!(matches!(
            brief.length_issue(&t),
            Some(LengthIssue::TooBrief { .. })
        ));
        // A parameter whose own description gives its unit, format, default or bounds
        // needs no words of the tool's description; one explained without them needs one.
        let described = |detail: &str| {
            assess(&tool(
                "get_service",
                "Gets one Cloud Run service.",
                json!({"type": "object", "properties": {
                    "region": {"type": "string", "description": detail},
                }}),
            ))
            .needed_words(&t)
        };
        assert_eq!(
            described("Region of the service (default europe-west1)"),
            t.base_words
        );
        assert_eq!(
            described("Region where the service is located"),
            t.base_words + 1
        );
        let clock = assess(&tool(
            "get_time",
            "Returns the current time in UTC.",
            no_input(),
        ));
        assert_eq!(clock.length_issue(&t), None);
        // Parameters their own descriptions explain need fewer words of the tool's: one each,
        // where an unexplained one needs two.
        let described = |a: &str, b: &str, c: &str| {
            json!({"type": "object", "properties": {
                "project": {"type": "string", "description": a},
                "region": {"type": "string", "description": b},
                "service": {"type": "string", "description": c},
            }})
        };
        let explained = assess(&tool(
            "get_service",
            "Gets the details of one Cloud Run deployment: its URL and revisions.",
            described(
                "Google Cloud project ID containing the service",
                "Region where the service is located",
                "Name of the Cloud Run service",
            ),
        ));
        assert_eq!(explained.needed_words(&t), 10);
        assert_eq!(explained.length_issue(&t), None);
        let bare = assess(&tool(
            "get_service",
            "Gets the details of one Cloud Run deployment: its URL and revisions.",
            described("", "", ""),
        ));
        assert_eq!(bare.needed_words(&t), 13);
        assert!(bare.length_issue(&t).is_some());
    }

    #[test]
    fn boilerplate_a_bare_route_and_a_restating_returns_section_say_no_purpose() {
        let t = Thresholds::default();
        let route = assess(&tool(
            "CreateIncomingPhoneNumberTollFree",
            "Twilio - Api: This is the public Twilio REST API. Make a POST request to \
             /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/TollFree.json \
             (Uses default AccountSid: AC00000000000000000000000000000000 if not provided)",
            no_input(),
        ));
        assert_eq!(route.purpose_score(&t), 1, "{route:?}");
        assert!(route.route_only, "{route:?}");
        // The boilerplate is not counted in the length either.
        let without = assess(&tool(
            "CreateIncomingPhoneNumberTollFree",
            "Twilio - Api: Make a POST request to \
             /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/TollFree.json",
            no_input(),
        ));
        assert_eq!(route.words, without.words, "{route:?}");
        let restated = assess(&tool(
            "update_service",
            "Update an existing service.\n\n    Args:\n        service_id: The ID of the service\n\n    Returns:\n        The updated service",
            no_input(),
        ));
        assert_eq!(restated.purpose_score(&t), 0, "{restated:?}");
        let returned = assess(&tool(
            "update_service",
            "Update an existing service.\n\n    Returns:\n        The service with its new revision number",
            no_input(),
        ));
        assert_eq!(returned.purpose_score(&t), 3, "{returned:?}");
    }

    #[test]
    fn boilerplate_is_a_product_s_name_not_any_phrase_ending_in_api() {
        let t = Thresholds::default();
        let real = assess(&tool(
            "search_code",
            "This is the fastest way to search the GitHub API.",
            no_input(),
        ));
        assert!(
            !real.restates_name && real.purpose_score(&t) > 0,
            "{real:?}"
        );
        assert_eq!(real.words, 10);
        let option = assess(&tool(
            "send_mail",
            "Sends a mail (uses the default domain unless one is given).",
            no_input(),
        ));
        assert_eq!(option.words, 11);
    }

    #[test]
    fn an_object_whose_properties_take_no_format_needs_no_example() {
        let keys = assess(&tool(
            "delete_feature_flag",
            "Removes a feature flag from the project.",
            json!({"type": "object", "properties": {"request": {"type": "object", "properties": {
                "projectKey": {"type": "string"},
                "featureFlagKey": {"type": "string"},
            }}}}),
        ));
        assert!(keys.missing_examples.is_empty(), "{keys:?}");
        let filtered = assess(&tool(
            "search_flags",
            "Searches the feature flags of a project.",
            json!({"type": "object", "properties": {"request": {"type": "object", "properties": {
                "projectKey": {"type": "string"},
                "filter": {"type": "string"},
            }}}}),
        ));
        assert_eq!(filtered.missing_examples, ["request"], "{filtered:?}");
        let free = assess(&tool(
            "search_flags",
            "Searches the feature flags of a project.",
            json!({"type": "object", "properties": {"options": {"type": "object"}},
                   "required": ["options"]}),
        ));
        assert_eq!(free.missing_examples, ["options"], "{free:?}");
        // An optional object that declares nothing and says nothing asks for no shape.
        let optional = assess(&tool(
            "search_flags",
            "Searches the feature flags of a project.",
            json!({"type": "object", "properties": {"options": {"type": "object"}}}),
        ));
        assert!(optional.missing_examples.is_empty(), "{optional:?}");
        let empty = assess(&tool(
            "search_flags",
            "Searches the feature flags of a project.",
            json!({"type": "object", "properties": {"options": {"type": "object", "properties": {}}}}),
        ));
        assert!(empty.missing_examples.is_empty(), "{empty:?}");
        let listed = assess(&tool(
            "tag_flag",
            "Tags a feature flag.",
            json!({"type": "object", "properties": {"request": {"type": "object", "properties": {
                "projectKey": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "settings": {"anyOf": [
                    {"type": "object", "properties": {"a": {"type": "string", "description": "x"}}},
                    {"type": "null"},
                ]},
            }}}}),
        ));
        assert!(listed.missing_examples.is_empty(), "{listed:?}");
    }

    #[test]
    fn a_short_parameter_description_in_the_tool_s_own_words_restates_it() {
        let tool_words: Vec<String> = identifier_words("create_repository")
            .iter()
            .map(|w| normal(w))
            .collect();
        assert!(restates_parameter("name", &tool_words, "Repository name"));
        assert!(!restates_parameter("name", &[], "Repository name"));
        assert!(!restates_parameter(
            "name",
            &tool_words,
            "Repository name, unique within the owner's account"
        ));
        assert!(!restates_parameter("name", &tool_words, "Name of the team"));
    }

    #[test]
    fn more_ways_of_stating_a_limitation_are_read() {
        for (text, kinds) in [
            (
                "Lists papers. Returns an empty list if none were downloaded.",
                1,
            ),
            ("Runs a search. Significantly slower than other tools.", 1),
            (
                "Downloads images. Images will be saved to the image directory.",
                1,
            ),
            (
                "Updates an incident. Only the provided fields are changed.",
                1,
            ),
            ("Executes SQL. Single statements only.", 1),
            ("Lints files. You must provide absolute file paths.", 1),
            ("Generates slides. Number of slides to generate (3-20).", 1),
            ("Lists results. Number of results (1-100, default 10).", 1),
            (
                "Deletes entities and their associated relations from the graph.",
                1,
            ),
            ("Removes a slicer. A timeline's period is cleared.", 1),
            (
                "Formats a range. `locked` applies once the sheet is protected.",
                1,
            ),
            (
                "Creates a todo. Not all todo integrations support due dates.",
                1,
            ),
            ("Lists the documents stored in a collection.", 0),
            ("Clears the cache of the project.", 0),
            ("Returns the slow query log.", 0),
            ("Converts a page to markdown.", 0),
        ] {
            let facts = assess(&tool("a_tool", text, no_input()));
            assert_eq!(facts.limitation_kinds, kinds, "{text}");
        }
    }

    #[test]
    fn a_leading_label_and_a_place_every_such_tool_acts_in_add_nothing_to_the_purpose() {
        let t = Thresholds::default();
        let tagged = assess(&tool(
            "API-retrieve-a-page",
            "Notion | Retrieve a page\nError Responses:\n400: Bad request",
            no_input(),
        ));
        assert!(tagged.restates_name, "{tagged:?}");
        let placed = assess(&tool(
            "playwright_hover",
            "Hover an element on the page",
            no_input(),
        ));
        assert_eq!(placed.purpose_score(&t), 2, "{placed:?}");
        // A leading "Lists" echoes the name; it says nothing of what comes back.
        let listed = assess(&tool(
            "list_pull_requests",
            "Lists the open pull requests of a repository.",
            no_input(),
        ));
        assert_eq!(listed.purpose_score(&t), 3, "{listed:?}");
        // A `Returns:` section says what the restated purpose does not.
        let sectioned = assess(&tool(
            "list_team_members",
            "List members of a team.\n\nReturns:\n    List of user references",
            no_input(),
        ));
        assert_eq!(sectioned.purpose_score(&t), 3, "{sectioned:?}");
        let noun = assess(&tool("ai_text_generation", "Generate text", no_input()));
        assert!(noun.restates_name, "{noun:?}");
    }

    #[test]
    fn the_description_explains_a_parameter_it_names_with_more_than_the_name() {
        let args = assess(&tool(
            "update_service",
            "Update a service.\n\nArgs:\n    service_id: The ID of the service\n    data (dict): Fields to change, as in the service's JSON",
            json!({"type": "object", "properties": {"service_id": {}, "data": {}}}),
        ));
        assert_eq!(args.unexplained, ["service_id"], "{args:?}");
        let words = assess(&tool(
            "lint-files",
            "Lints files. Give absolute file paths.",
            json!({"type": "object", "properties": {"filePaths": {"type": "array"}}}),
        ));
        assert!(words.unexplained.is_empty(), "{words:?}");
        let wrapper = assess(&tool(
            "list_artifacts",
            "Lists the artifacts of a job.",
            json!({"type": "object", "properties": {"params": {"type": "object", "properties": {
                "branch": {"type": "string", "description": "Branch checked out locally"}
            }}}}),
        ));
        assert!(wrapper.unexplained.is_empty(), "{wrapper:?}");
    }

    #[test]
    fn an_object_is_shown_by_the_keys_its_description_names() {
        let facts = assess(&tool(
            "search",
            "Searches an index.",
            json!({"type": "object", "required": ["body", "options"], "properties": {
                "body": {"type": "object", "description": "Query DSL object that can include query, size, from, sort"},
                "params": {"type": "object", "description": "Query parameters as key-value pairs"},
                "options": {"type": "object", "description": "Search options"}
            }}),
        ));
        assert_eq!(facts.missing_examples, ["options"], "{facts:?}");
    }

    #[test]
    fn a_named_source_a_stated_exclusion_and_a_named_query_language_are_read() {
        let t = Thresholds::default();
        // "from where" is what the rubric's purpose row 3 asks beyond the name.
        let source = assess(&tool(
            "maps_search_places",
            "Search for places using Google Places API",
            no_input(),
        ));
        assert_eq!(source.purpose_score(&t), 3, "{source:?}");
        let bare = assess(&tool("maps_search_places", "Search for places", no_input()));
        assert!(bare.purpose_score(&t) <= 2, "{bare:?}");
        for text in [
            "Gets the images of a page. Images larger than 50 MB are skipped.",
            "Updates a version. Other attributes of the version are left untouched.",
            "Checks theorem axioms. Only scans the given file, not imports.",
            "Deploys a folder. Make sure the user confirms the project ID.",
            "Finds related papers from one to ten seed ids.",
            "Navigates to a URL. When false, dangerous arguments throw errors.",
            "Uploads an attachment to a ticket; there is a 5 MB limit.",
            "Sets the proxy of the session. The browser restarts to apply it.",
            "Returns the newest posts, never more than 1,000 results.",
            "Requests longer than 500 ms are dropped.",
            "Uploads an attachment. Attachments have a 25 MB size limit.",
            "Uploads a file of 10 MB or less.",
            "Applies the settings. It replaces any existing value.",
            "Saves the config. The server will restart to load it.",
        ] {
            let read = assess(&tool("some_tool", text, no_input()));
            assert!(read.limitation_kinds >= 1, "{text}: {read:?}");
        }
        // A filter, a size, a move or the tool's own verb bounds nothing and has no effect
        // beyond what the name says.
        for (name, text) in [
            (
                "move_items",
                "Moves the selected items from one to another list.",
            ),
            (
                "search_repositories",
                "Searches repositories with more than 100 stars.",
            ),
            (
                "create_volume",
                "Creates a 100 GB volume in the given zone.",
            ),
            (
                "restart_container",
                "Restarts the container with the given id.",
            ),
            (
                "replace_text",
                "Replaces any occurrence of a word in the document.",
            ),
        ] {
            let read = assess(&tool(name, text, no_input()));
            assert_eq!(read.limitation_kinds, 0, "{text}: {read:?}");
        }
        // After "in", an acronym names a format or a zone, not a source.
        let format = assess(&tool("list_logs", "List logs in JSON", no_input()));
        assert_eq!(format.new_words, 0, "{format:?}");
        let source = assess(&tool("list_logs", "List logs in Datadog", no_input()));
        assert_eq!(source.new_words, 1, "{source:?}");
        let place = assess(&tool("list_logs", "List logs in AWS", no_input()));
        assert_eq!(place.new_words, 1, "{place:?}");
        let query = |name: &str, text: &str| {
            assess(&tool(
                "query_metrics",
                "Queries a metrics datasource.",
                json!({"type": "object", "properties": {name: {"type": "string", "description": text}}}),
            ))
            .missing_examples
        };
        assert!(query("expr", "The PromQL expression to query").is_empty());
        assert_eq!(query("expr", "The expression to query"), ["expr"]);
        // `time_interval_name` names a time interval; it takes no time syntax.
        assert!(query("time_interval_name", "Name of the time interval").is_empty());
        assert_eq!(
            query("time_interval", "The time interval"),
            ["time_interval"]
        );
    }

    #[test]
    fn limitations_need_a_condition_not_a_word() {
        let none = assess(&tool(
            "events_list",
            "Lists events (warnings, errors, state changes). Deletes nothing.",
            no_input(),
        ));
        assert_eq!(none.limitation_kinds, 0, "{none:?}");
        let failure = assess(&tool(
            "cancel_query",
            "Cancels a query. Returns an error if the query has ended.",
            no_input(),
        ));
        assert_eq!(failure.limitation_kinds, 1, "{failure:?}");
    }

    #[test]
    fn length_counts_every_word_of_the_description() {
        let t = Thresholds::default();
        let args = assess(&tool(
            "get_collection_count",
            "Get the number of documents in a collection.\n\nArgs:\n    collection_name: Name of the collection to count",
            json!({"type": "object", "properties": {"collection_name": {"type": "string"}}}),
        ));
        assert_eq!(args.length_issue(&t), None, "{args:?}");
    }

    #[test]
    fn mentions_finds_whole_identifiers_only() {
        assert!(mentions("pass `cursor` back", "cursor"));
        assert!(!mentions("the cursors", "cursor"));
        assert!(!mentions("next_cursor", "cursor"));
    }
}
