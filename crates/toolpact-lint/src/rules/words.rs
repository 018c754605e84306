//! Words as the rules compare them: identifiers split into their words (`getUserId` → get,
//! user, id), free text split into words, and two rough normal forms — [`stem`], which stays
//! a word so that rules can look it up in their lists, and [`normal_word`], which only has to
//! make two forms of a word meet.
//!
//! This is deliberately small: the rules only ask questions such as "does this text say
//! anything the name does not?", and a wrong "yes" (a missed finding) is cheaper than a wrong
//! "no" (a false alarm).

/// What a split does between letters and digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Digits {
    /// `tool1` → tool, 1; `v2` → v, 2: the description and design rules compare names word
    /// by word, and a trailing number is not part of what a property or tool is about.
    Split,
    /// `v2`, `s3`, `k8s`, `base64` and `oauth2` stay whole: the security rules recognise such
    /// names as a whole (`k8s` is about cluster credentials, `k`, `8` and `s` are nothing).
    /// A capital after a digit still starts a word (`v2Key` → v2, key).
    Keep,
}

/// Calls `f` with each word of `name` as written (a slice of `name`, not yet lowercased), so
/// that callers allocate only for what they keep.
///
/// Words end at any character that is not a letter or a digit, at a change from lower to
/// upper case, before the last capital of an acronym (`HTTPServer` → http, server) unless it
/// is a plural `s` (`couponIDs` → coupon, ids; `URLsList` → urls, list), and between letters
/// and digits as `digits` says.
fn split_identifier<'n>(name: &'n str, digits: Digits, f: &mut impl FnMut(&'n str)) {
    let mut emit = |from: usize, to: usize| {
        if let Some(word) = name.get(from..to) {
            f(word);
        }
    };
    // Where the word being read starts, and its last character.
    let mut start: Option<usize> = None;
    let mut prev: Option<char> = None;
    for (at, c) in name.char_indices() {
        if !c.is_alphanumeric() {
            if let Some(from) = start.take() {
                emit(from, at);
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let digit_edge = match digits {
                Digits::Split => {
                    (p.is_alphabetic() && c.is_numeric()) || (p.is_numeric() && c.is_alphabetic())
                }
                Digits::Keep => p.is_numeric() && c.is_uppercase(),
            };
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || digit_edge
                || (p.is_uppercase()
                    && c.is_uppercase()
                    && name
                        .get(at + c.len_utf8()..)
                        .is_some_and(acronym_ends_before));
            if boundary && let Some(from) = start.take() {
                emit(from, at);
            }
        }
        start.get_or_insert(at);
        prev = Some(c);
    }
    if let Some(from) = start {
        emit(from, name.len());
    }
}

/// Whether the capital just read starts a new word after an acronym, given the text after
/// it: it does when a lowercase letter follows (`HTTPServer`: `S` starts `Server`), unless
/// that letter is the acronym's plural `s` (`IDs`, `URLsList`, but `IDsort` is `i`, `dsort`).
fn acronym_ends_before(rest: &str) -> bool {
    let mut ahead = rest.chars();
    match ahead.next() {
        Some('s') => ahead.next().is_some_and(char::is_lowercase),
        Some(next) => next.is_lowercase(),
        None => false,
    }
}

/// Appends `word` lowercased, character by character, to `out`.
fn push_lowercase(out: &mut String, word: &str) {
    if word.is_ascii() {
        out.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    } else {
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
}

/// `word` lowercased, character by character, in a string of its own.
fn lowercase(word: &str) -> String {
    if word.is_ascii() {
        word.to_ascii_lowercase()
    } else {
        word.chars().flat_map(char::to_lowercase).collect()
    }
}

/// The words of an identifier, lowercased, with letters and digits apart: `get_weather` →
/// get, weather; `maxBudget` → max, budget; `userID` → user, id; `couponIDs` → coupon, ids;
/// `HTTPServer` → http, server; `tool1` → tool, 1; `admin.tools-list` → admin, tools, list.
pub(crate) fn identifier_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    split_identifier(name, Digits::Split, &mut |w| words.push(lowercase(w)));
    words
}

/// Calls `f` with each word of an identifier, lowercased as [`identifier_words`] has them,
/// from one reused buffer: for hot paths that only look at each word once.
pub(crate) fn for_each_identifier_word(name: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    split_identifier(name, Digits::Split, &mut |w| {
        word.clear();
        push_lowercase(&mut word, w);
        f(&word);
    });
}

/// The words of an identifier like [`identifier_words`], but with letters and digits kept
/// together, for the security rules that know names such as `k8s`, `s3` or `base64`:
/// `getUserAPIKey` → get, user, api, key; `ssh-key_path.v2` → ssh, key, path, v2.
pub(crate) fn identifier_words_keeping_digits(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    split_identifier(name, Digits::Keep, &mut |w| words.push(lowercase(w)));
    words
}

/// Calls `f` with each word of free text, as written; identifiers inside it (`foodId`,
/// `search_foods`) are split like names.
fn for_each_text_word<'t>(text: &'t str, f: &mut impl FnMut(&'t str)) {
    for token in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        split_identifier(token, Digits::Split, f);
    }
}

/// The words of free text, lowercased; identifiers inside it (`foodId`, `search_foods`) are
/// split like names.
pub(crate) fn text_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for_each_text_word(text, &mut |w| words.push(lowercase(w)));
    words
}

/// Whether `text` holds one of `words` (lowercase ASCII) as a whole word, ignoring case: a
/// single pass that spares most descriptions the search for longer phrases.
pub(crate) fn mentions_any(text: &str, words: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| words.iter().any(|k| w.eq_ignore_ascii_case(k)))
}

/// A rough stem that is still a word, so that rules can look it up in their word lists:
/// plurals and third-person verbs lose their `s` (`categories` → category), and the verbs and
/// nouns a name and its description use for the same thing meet, so that "Retrieves the
/// forecasts" compares equal to `get_forecast` and "Adds a gift" to `create_gift`.
pub(crate) fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    let base = if w.chars().count() <= 3 || w.ends_with("ss") || w.ends_with("us") {
        w
    } else if let Some(root) = w.strip_suffix("ies") {
        format!("{root}y")
    } else if ["ches", "shes", "sses", "xes", "zes"]
        .iter()
        .any(|s| w.ends_with(s))
    {
        w[..w.len() - 2].to_owned()
    } else if w.ends_with("is") {
        w
    } else if let Some(root) = w.strip_suffix('s') {
        root.to_owned()
    } else {
        w
    };
    let canonical = match base.as_str() {
        "fetch" | "retrieve" | "obtain" | "return" => "get",
        "find" | "lookup" | "query" => "search",
        "remove" | "erase" | "destroy" => "delete",
        "modify" | "change" | "edit" => "update",
        "make" | "new" | "add" | "insert" => "create",
        "uuid" | "guid" | "identifier" => "id",
        "maximum" => "max",
        "minimum" => "min",
        "num" => "number",
        "param" | "parameter" | "argument" | "arg" => "parameter",
        _ => return base,
    };
    canonical.to_owned()
}

/// A word (already lowercase) in a normal form for comparing two texts with each other: a
/// light English plural and `-ing` strip, then one verb for each family of synonyms (find,
/// lookup, look, query → search).
///
/// Unlike [`stem`] it may cut a word to something that is not one (`categories` and
/// `category` both become `categor`), since only equality matters, and it never allocates:
/// the overlap rule normalizes every word of every description in the catalog. Its synonyms
/// are those of tools that do the same thing (`read` and `get`, `view` and `show`), not
/// those of a name and its description.
pub(crate) fn normal_word(word: &str) -> &str {
    match comparison_stem(word) {
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

/// The stem [`normal_word`] compares: a slice of the word, never a new string.
fn comparison_stem(word: &str) -> &str {
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

/// Function words that carry no meaning on their own, sorted for binary search.
pub(crate) const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "being",
    "by",
    "can",
    "could",
    "do",
    "does",
    "don",
    "e",
    "eg",
    "etc",
    "for",
    "from",
    "g",
    "given",
    "has",
    "have",
    "i",
    "ie",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "may",
    "me",
    "might",
    "must",
    "my",
    "of",
    "on",
    "one",
    "or",
    "our",
    "provided",
    "s",
    "shall",
    "should",
    "so",
    "some",
    "specified",
    "t",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "up",
    "us",
    "use",
    "used",
    "using",
    "via",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "who",
    "will",
    "with",
    "would",
    "you",
    "your",
];

/// English words too common to tell two tools' descriptions apart, sorted for binary search;
/// the companion of [`normal_word`].
///
/// Not [`STOP_WORDS`]: that list strips a description down to what it says beyond a name, so
/// it leaves in words such as "not", "only" and "before", which change what a description
/// says; between two descriptions, such words (and "tool", "call") are shared by most tools
/// and only make unrelated tools look alike.
pub(crate) const COMPARISON_STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "but", "by", "call", "can", "could", "do", "does", "each", "eg", "etc",
    "for", "from", "given", "has", "have", "how", "i", "ie", "if", "in", "into", "is", "it", "its",
    "may", "more", "must", "no", "not", "of", "on", "one", "only", "or", "other", "our", "should",
    "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "to", "tool", "up", "use", "used", "using", "via", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "will", "with", "would", "you", "your",
];

/// Words that name a kind of thing without saying which: "the data", "input value", "a
/// tool", "details".
pub(crate) const FILLER_WORDS: &[&str] = &[
    "boolean",
    "data",
    "detail",
    "field",
    "filter",
    "flag",
    "function",
    "helper",
    "info",
    "information",
    "input",
    "integer",
    "name",
    "number",
    "object",
    "optional",
    "parameter",
    "property",
    "required",
    "stuff",
    "string",
    "text",
    "thing",
    "tool",
    "value",
];

/// Words that describe a container rather than what it holds: "list of tags".
pub(crate) const CONTAINER_WORDS: &[&str] = &[
    "array",
    "collection",
    "element",
    "entry",
    "item",
    "list",
    "multiple",
    "set",
];

/// The stems of the words in `text` that are not [`STOP_WORDS`].
pub(crate) fn content_words(text: &str) -> Vec<String> {
    let mut stems = Vec::new();
    let mut word = String::new();
    for_each_text_word(text, &mut |w| {
        word.clear();
        push_lowercase(&mut word, w);
        if STOP_WORDS.binary_search(&word.as_str()).is_err() {
            stems.push(stem(&word));
        }
    });
    stems
}

/// The stems of the words of an identifier (stop words kept: in a name they were chosen).
pub(crate) fn name_stems(name: &str) -> Vec<String> {
    let mut stems = Vec::new();
    let mut word = String::new();
    split_identifier(name, Digits::Split, &mut |w| {
        word.clear();
        push_lowercase(&mut word, w);
        stems.push(stem(&word));
    });
    stems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        for list in [STOP_WORDS, COMPARISON_STOP_WORDS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn splits_identifiers_at_case_separators_and_digits() {
        assert_eq!(identifier_words("get_weather"), ["get", "weather"]);
        assert_eq!(identifier_words("getUserId"), ["get", "user", "id"]);
        assert_eq!(identifier_words("maxBudget"), ["max", "budget"]);
        assert_eq!(identifier_words("userID"), ["user", "id"]);
        assert_eq!(identifier_words("HTTPServer"), ["http", "server"]);
        assert_eq!(identifier_words("couponIDs"), ["coupon", "ids"]);
        assert_eq!(identifier_words("IDsToDelete"), ["ids", "to", "delete"]);
        assert_eq!(identifier_words("IDsort"), ["i", "dsort"]);
        assert_eq!(identifier_words("URLsList"), ["urls", "list"]);
        assert_eq!(identifier_words("tool1"), ["tool", "1"]);
        assert_eq!(
            identifier_words("DATA_EXPORT_v2"),
            ["data", "export", "v", "2"]
        );
        assert_eq!(
            identifier_words("admin.tools-list"),
            ["admin", "tools", "list"]
        );
        assert_eq!(identifier_words("sort_by"), ["sort", "by"]);
        assert_eq!(identifier_words("ÉtatCivil"), ["état", "civil"]);
        assert!(identifier_words("").is_empty());
        assert!(identifier_words("__").is_empty());
    }

    #[test]
    fn keeping_digits_leaves_versions_and_encodings_whole() {
        assert_eq!(
            identifier_words_keeping_digits("getUserAPIKey"),
            ["get", "user", "api", "key"]
        );
        assert_eq!(
            identifier_words_keeping_digits("ssh-key_path.v2"),
            ["ssh", "key", "path", "v2"]
        );
        assert_eq!(
            identifier_words_keeping_digits("k8s_s3_base64"),
            ["k8s", "s3", "base64"]
        );
        assert_eq!(identifier_words_keeping_digits("v2Key"), ["v2", "key"]);
        assert_eq!(
            identifier_words_keeping_digits("listAPIs"),
            ["list", "apis"]
        );
    }

    #[test]
    fn splits_text_and_the_identifiers_in_it() {
        assert_eq!(
            text_words("Pass the foodId from search_foods."),
            ["pass", "the", "food", "id", "from", "search", "foods"]
        );
        assert_eq!(
            content_words("Gets the foodId."),
            ["get", "food", "id"],
            "stop words go, stems stay"
        );
    }

    #[test]
    fn stems_plurals_and_synonyms() {
        assert_eq!(stem("Gets"), "get");
        assert_eq!(stem("gifts"), "gift");
        assert_eq!(stem("searches"), "search");
        assert_eq!(stem("categories"), "category");
        assert_eq!(stem("address"), "address");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("Retrieves"), "get");
        assert_eq!(stem("UUID"), "id");
        assert_eq!(stem("bus"), "bus");
    }

    #[test]
    fn normalizes_words_for_comparison() {
        assert_eq!(normal_word("products"), "product");
        assert_eq!(normal_word("searches"), "search");
        assert_eq!(normal_word("finding"), "search");
        assert_eq!(normal_word("categories"), normal_word("category"));
        assert_eq!(normal_word("status"), "status");
        assert_eq!(normal_word("class"), "class");
    }

    #[test]
    fn mentions_whole_words_only() {
        assert!(mentions_any("The Database id", &["database"]));
        assert!(!mentions_any("databases", &["database"]));
    }
}
