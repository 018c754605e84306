//! Words of identifiers (`getUserId` → get, user, id) and the verbs that say what a tool
//! does to the world, shared by the design rules that read names.

/// Splits an identifier into lowercase words at `_`, `-`, `.`, spaces and other punctuation,
/// at lower-to-upper case changes, between letters and digits, and before the last capital of
/// an acronym: `getUserId` → get, user, id; `HTTPServer` → http, server; `tool1` → tool, 1;
/// `admin.tools.list` → admin, tools, list.
pub(crate) fn identifier_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = name.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut word, &mut words);
            prev = None;
            continue;
        }
        if let Some(prev) = prev {
            let next = chars.peek().copied();
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_alphabetic() && c.is_numeric())
                || (prev.is_numeric() && c.is_alphabetic())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(char::is_lowercase));
            if boundary {
                flush(&mut word, &mut words);
            }
        }
        if c.is_ascii() {
            word.push(c.to_ascii_lowercase());
        } else {
            word.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    flush(&mut word, &mut words);
    words
}

fn flush(word: &mut String, words: &mut Vec<String>) {
    if !word.is_empty() {
        words.push(std::mem::take(word));
    }
}

/// Verbs that change the world: a tool named with one creates, changes, sends, pays or
/// deletes something.
const CHANGING_VERBS: &[&str] = &[
    "accept",
    "add",
    "apply",
    "approve",
    "archive",
    "assign",
    "ban",
    "block",
    "book",
    "buy",
    "cancel",
    "change",
    "charge",
    "clear",
    "close",
    "comment",
    "commit",
    "confirm",
    "create",
    "decline",
    "delete",
    "deploy",
    "destroy",
    "disable",
    "drop",
    "edit",
    "email",
    "enable",
    "enroll",
    "erase",
    "follow",
    "forward",
    "grant",
    "insert",
    "install",
    "invite",
    "kill",
    "launch",
    "like",
    "lock",
    "log",
    "mark",
    "merge",
    "message",
    "modify",
    "move",
    "mute",
    "notify",
    "order",
    "patch",
    "pay",
    "pin",
    "post",
    "publish",
    "purchase",
    "purge",
    "push",
    "put",
    "record",
    "refund",
    "register",
    "reject",
    "remove",
    "rename",
    "reopen",
    "reply",
    "reschedule",
    "reset",
    "restart",
    "restore",
    "revoke",
    "save",
    "schedule",
    "sell",
    "send",
    "set",
    "share",
    "sign",
    "star",
    "store",
    "submit",
    "subscribe",
    "sync",
    "tag",
    "terminate",
    "transfer",
    "trigger",
    "truncate",
    "tweet",
    "unarchive",
    "unassign",
    "unblock",
    "unfollow",
    "uninstall",
    "unlock",
    "unmute",
    "unpin",
    "unregister",
    "unsubscribe",
    "update",
    "upload",
    "upsert",
    "wipe",
    "write",
];

/// Changing verbs that are also common nouns (`order_status`, `blog_post_list`): they count as
/// verbs only near the start of the name and when no read word follows them.
const NOUN_LIKE_VERBS: &[&str] = &[
    "apply", "archive", "block", "book", "change", "charge", "clear", "comment", "commit", "drop",
    "email", "forward", "install", "launch", "like", "lock", "log", "mark", "merge", "message",
    "move", "order", "patch", "pin", "post", "push", "put", "record", "reply", "schedule", "share",
    "sign", "star", "store", "tag", "transfer", "trigger",
];

/// Verbs that only read: a tool named with one looks something up and changes nothing.
const READING_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "browse",
    "calculate",
    "check",
    "compare",
    "compute",
    "convert",
    "count",
    "describe",
    "discover",
    "estimate",
    "explore",
    "fetch",
    "find",
    "get",
    "inspect",
    "list",
    "locate",
    "look",
    "lookup",
    "preview",
    "query",
    "read",
    "retrieve",
    "search",
    "show",
    "summarise",
    "summarize",
    "validate",
    "view",
];

/// Reading verbs that search an open or large set rather than fetch one known thing.
const SEARCHING_VERBS: &[&str] = &[
    "browse", "discover", "explore", "find", "locate", "look", "lookup", "query", "search",
];

/// Words that, right after a noun-like verb, show it was a noun (`order_status`, `log_entries`).
const READ_NOUNS: &[&str] = &[
    "count",
    "data",
    "detail",
    "details",
    "entries",
    "entry",
    "histories",
    "history",
    "id",
    "ids",
    "info",
    "items",
    "lines",
    "number",
    "report",
    "status",
    "statuses",
    "summary",
];

/// Whether `text` holds one of `words` (lowercase ASCII) as a whole word, ignoring case: a
/// single pass that spares most descriptions the search for longer phrases.
pub(crate) fn mentions_any(text: &str, words: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| words.iter().any(|k| w.eq_ignore_ascii_case(k)))
}

/// Whether a sorted word list holds `word`.
fn listed(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

/// What a tool's name says it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// It creates, changes, sends or deletes something.
    Changes,
    /// It only reads; `searches` when it searches rather than fetches.
    Reads {
        /// Whether the verb is a search (`search`, `find`, `lookup`, `query`, …).
        searches: bool,
    },
}

/// The verb of a tool name and what it says the tool does, or `None` when the name has no
/// verb we know in its first three words (`weather`, `slack_channels`).
///
/// A namespace may come first (`github_create_issue`). A changing verb anywhere wins over a
/// reading one (`get_or_create_user` changes the world).
pub(crate) fn effect_of_name(name: &str) -> Option<(String, Effect)> {
    let words = identifier_words(name);
    let mut found: Option<(String, Effect)> = None;
    for (pos, word) in words.iter().enumerate().take(3) {
        let next = words.get(pos + 1).map(String::as_str);
        if listed(CHANGING_VERBS, word) {
            let noun_like = listed(NOUN_LIKE_VERBS, word);
            let read_follows = next
                .is_some_and(|n| listed(READ_NOUNS, n) || listed(READING_VERBS, n) || n == "by");
            if !noun_like || (pos <= 1 && !read_follows) {
                found = Some((word.clone(), Effect::Changes));
                break;
            }
            continue;
        }
        if listed(READING_VERBS, word) {
            let searches = listed(SEARCHING_VERBS, word);
            let verb = if word == "look" && next == Some("up") {
                "look up".to_owned()
            } else {
                word.clone()
            };
            found = Some((verb, Effect::Reads { searches }));
            break;
        }
    }
    if let Some((_, Effect::Reads { .. })) = found {
        // `get_or_create_user`, `find_and_delete`: the changing verb decides.
        if let Some(verb) = words
            .iter()
            .find(|w| listed(CHANGING_VERBS, w) && !listed(NOUN_LIKE_VERBS, w))
        {
            return Some((verb.clone(), Effect::Changes));
        }
    }
    found
}

/// English words too common to tell two descriptions apart.
pub(crate) const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "but", "by", "call", "can", "could", "do", "does", "each", "eg", "etc",
    "for", "from", "given", "has", "have", "how", "i", "ie", "if", "in", "into", "is", "it", "its",
    "may", "more", "must", "no", "not", "of", "on", "one", "only", "or", "other", "our", "should",
    "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "to", "tool", "up", "use", "used", "using", "via", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "will", "with", "would", "you", "your",
];

/// A word in a normal form for comparing descriptions: a light English plural and `-ing`
/// strip, then one verb for each family of synonyms (find, lookup, look, query → search).
pub(crate) fn normal_word(word: &str) -> &str {
    let stem = stem(word);
    match stem {
        "find" | "lookup" | "look" | "query" | "seek" | "locate" => "search",
        "fetch" | "retrieve" | "obtain" | "return" | "read" => "get",
        "remove" | "erase" | "destroy" | "purge" => "delete",
        "modify" | "edit" | "change" => "update",
        "display" | "view" => "show",
        "enumerate" => "list",
        "make" => "create",
        other => other,
    }
}

fn stem(word: &str) -> &str {
    let n = word.len();
    if !word.is_ascii() || n <= 3 {
        return word;
    }
    if let Some(base) = word.strip_suffix("ies").filter(|_| n > 4) {
        // "categories" → "categor"; both forms land on the same stem below.
        return base;
    }
    if let Some(base) = word.strip_suffix("es")
        && (base.ends_with("ch")
            || base.ends_with("sh")
            || base.ends_with('x')
            || base.ends_with("ss")
            || base.ends_with('z'))
    {
        return base;
    }
    if let Some(base) = word.strip_suffix("ing").filter(|_| n > 5) {
        return base;
    }
    if word.ends_with('y') && n > 4 {
        // "category" → "categor", to meet "categories".
        return &word[..n - 1];
    }
    if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        return &word[..n - 1];
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted_for_binary_search() {
        for list in [
            CHANGING_VERBS,
            NOUN_LIKE_VERBS,
            READING_VERBS,
            SEARCHING_VERBS,
            READ_NOUNS,
            STOPWORDS,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn splits_identifiers() {
        assert_eq!(identifier_words("getUserId"), ["get", "user", "id"]);
        assert_eq!(identifier_words("HTTPServer"), ["http", "server"]);
        assert_eq!(identifier_words("tool1"), ["tool", "1"]);
        assert_eq!(
            identifier_words("admin.tools.list"),
            ["admin", "tools", "list"]
        );
        assert_eq!(
            identifier_words("DATA_EXPORT_v2"),
            ["data", "export", "v", "2"]
        );
        assert_eq!(identifier_words("sort_by"), ["sort", "by"]);
        assert!(identifier_words("").is_empty());
        assert!(identifier_words("__").is_empty());
    }

    #[test]
    fn reads_effects_from_names() {
        let effect = |n: &str| effect_of_name(n).map(|(_, e)| e);
        assert_eq!(effect("create_order"), Some(Effect::Changes));
        assert_eq!(effect("github_create_issue"), Some(Effect::Changes));
        assert_eq!(effect("slack_post_message"), Some(Effect::Changes));
        assert_eq!(effect("get_or_create_user"), Some(Effect::Changes));
        assert_eq!(effect("order_gift"), Some(Effect::Changes));
        assert_eq!(
            effect("order_status"),
            None,
            "a noun followed by a read noun is not a verb"
        );
        assert_eq!(
            effect("blog_post_list"),
            Some(Effect::Reads { searches: false })
        );
        assert_eq!(effect("getUser"), Some(Effect::Reads { searches: false }));
        assert_eq!(effect("web_search"), Some(Effect::Reads { searches: true }));
        assert_eq!(
            effect("look_up_order"),
            Some(Effect::Reads { searches: true })
        );
        assert_eq!(effect("weather"), None);
        assert_eq!(effect("settings"), None);
        assert_eq!(
            effect("address_lookup"),
            Some(Effect::Reads { searches: true })
        );
    }

    #[test]
    fn normalizes_words() {
        assert_eq!(normal_word("products"), "product");
        assert_eq!(normal_word("searches"), "search");
        assert_eq!(normal_word("finding"), "search");
        assert_eq!(normal_word("categories"), normal_word("category"));
        assert_eq!(normal_word("status"), "status");
        assert_eq!(normal_word("class"), "class");
    }
}
