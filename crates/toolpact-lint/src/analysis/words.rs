//! Words as the rules compare them: identifiers split into their words (`getUserId` → get,
//! user, id), free text split into words, and two rough normal forms — [`stem`], which stays
//! a word so that rules can look it up in their lists, and [`normal_word`], which only has to
//! make two forms of a word meet.
//!
//! This is deliberately small: the rules only ask questions such as "does this text say
//! anything the name does not?", and a wrong "yes" (a missed finding) is cheaper than a wrong
//! "no" (a false alarm).

use crate::analysis::names::Set;
use std::sync::LazyLock;

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
    if name.is_ascii() {
        split_ascii_identifier(name, digits, f);
    } else {
        split_unicode_identifier(name, digits, f);
    }
}

/// [`split_identifier`] for any text, character by character.
fn split_unicode_identifier<'n>(name: &'n str, digits: Digits, f: &mut impl FnMut(&'n str)) {
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

/// What an ASCII character is to [`split_ascii_identifier`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ascii {
    /// Anything but a letter or a digit: it ends a word.
    Separator,
    /// `a` to `z`.
    Lower,
    /// `A` to `Z`.
    Upper,
    /// `0` to `9`.
    Digit,
}

impl Ascii {
    fn of(byte: u8) -> Ascii {
        match byte {
            b'a'..=b'z' => Ascii::Lower,
            b'A'..=b'Z' => Ascii::Upper,
            b'0'..=b'9' => Ascii::Digit,
            _ => Ascii::Separator,
        }
    }
}

/// [`split_identifier`] for ASCII text, byte by byte: the same rules, where the only letters
/// are `a`–`z` and `A`–`Z` and the only digits `0`–`9`. Names and descriptions are nearly
/// always ASCII, and every rule that compares words splits them.
fn split_ascii_identifier<'n>(name: &'n str, digits: Digits, f: &mut impl FnMut(&'n str)) {
    let bytes = name.as_bytes();
    // Where the word being read starts, and what its last character is (a separator
    // before the first).
    let mut start: Option<usize> = None;
    let mut prev = Ascii::Separator;
    for (at, &byte) in bytes.iter().enumerate() {
        let class = Ascii::of(byte);
        let boundary = match (prev, class) {
            (_, Ascii::Separator) => {
                if let Some(from) = start.take() {
                    f(&name[from..at]);
                }
                prev = Ascii::Separator;
                continue;
            }
            (Ascii::Separator, _) => false,
            (Ascii::Lower, Ascii::Upper) => true,
            (Ascii::Upper, Ascii::Upper) => ascii_acronym_ends_before(&bytes[at + 1..]),
            (Ascii::Digit, Ascii::Upper) => true,
            (Ascii::Lower | Ascii::Upper, Ascii::Digit) | (Ascii::Digit, Ascii::Lower) => {
                digits == Digits::Split
            }
            (Ascii::Lower, Ascii::Lower)
            | (Ascii::Upper, Ascii::Lower)
            | (Ascii::Digit, Ascii::Digit) => false,
        };
        if boundary && let Some(from) = start.take() {
            f(&name[from..at]);
        }
        start.get_or_insert(at);
        prev = class;
    }
    if let Some(from) = start {
        f(&name[from..]);
    }
}

/// [`acronym_ends_before`] for ASCII text.
fn ascii_acronym_ends_before(rest: &[u8]) -> bool {
    match rest {
        [b's', next, ..] => next.is_ascii_lowercase(),
        [b's'] => false,
        [next, ..] => next.is_ascii_lowercase(),
        [] => false,
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
    if text.is_ascii() {
        // ASCII text splits as one long identifier: a character that ends a token (neither
        // alphanumeric nor `_`) ends a word of an identifier too, and, not being a lowercase
        // letter, cannot make a capital before it end an acronym.
        split_ascii_identifier(text, Digits::Split, f);
        return;
    }
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

/// Whether one of the words of free text, lowercased as [`text_words`] has them, satisfies
/// `f`: the words are read one at a time into one buffer, and the reading stops at the first.
pub(crate) fn any_text_word(text: &str, mut f: impl FnMut(&str) -> bool) -> bool {
    let mut word = String::new();
    let mut found = false;
    for_each_text_word(text, &mut |w| {
        if !found {
            word.clear();
            push_lowercase(&mut word, w);
            found = f(&word);
        }
    });
    found
}

/// Whether `text` holds `name` as a whole identifier (not inside a longer one: `cursor` is
/// not in `next_cursor` nor in "the cursors").
pub(crate) fn mentions_identifier(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
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
    // Words come here lowercased already, nearly always: lowercasing them again would cost a
    // string of its own for each.
    if word.is_ascii() && !word.bytes().any(|b| b.is_ascii_uppercase()) {
        stem_lowercase(word)
    } else {
        stem_lowercase(&word.to_lowercase())
    }
}

/// [`stem`] of a word that is lowercase already, in the one string it returns.
fn stem_lowercase(w: &str) -> String {
    // What is left of the word, and whether a `y` replaces what was cut (`categories`).
    let (root, y) = if w.chars().nth(3).is_none() || w.ends_with("ss") || w.ends_with("us") {
        (w, false)
    } else if let Some(root) = w.strip_suffix("ies") {
        (root, true)
    } else if ["ches", "shes", "sses", "xes", "zes"]
        .iter()
        .any(|s| w.ends_with(s))
    {
        (&w[..w.len() - 2], false)
    } else if w.ends_with("is") {
        (w, false)
    } else if let Some(root) = w.strip_suffix('s') {
        (root, false)
    } else {
        (w, false)
    };
    let mut base = String::with_capacity(root.len() + usize::from(y));
    base.push_str(root);
    if y {
        base.push('y');
    }
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
    base.clear();
    base.push_str(canonical);
    base
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

/// Function words that carry no meaning on their own, sorted (see [`is_stop_word`]).
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

/// Whether `word` is one of [`COMPARISON_STOP_WORDS`]. Every word of the list is at most
/// seven bytes, so each is searched as a number made of its bytes and its length: a few
/// comparisons of numbers, where a search of the strings compares bytes at every step (the
/// overlap rule asks this of every word of every tool).
pub(crate) fn is_comparison_stop_word(word: &str) -> bool {
    static KEYS: LazyLock<Vec<u64>> = LazyLock::new(|| {
        let mut keys: Vec<u64> = COMPARISON_STOP_WORDS
            .iter()
            .filter_map(|w| short_word_key(w))
            .collect();
        keys.sort_unstable();
        keys
    });
    short_word_key(word).is_some_and(|key| KEYS.binary_search(&key).is_ok())
}

/// A word of at most seven bytes as a number: its bytes, then its length in the last byte,
/// so that no two words share a number. `None` for a longer word.
fn short_word_key(word: &str) -> Option<u64> {
    let bytes = word.as_bytes();
    let mut key = [0u8; 8];
    key.get_mut(..bytes.len())
        .filter(|_| bytes.len() < 8)?
        .copy_from_slice(bytes);
    key[7] = u8::try_from(bytes.len()).ok()?;
    Some(u64::from_le_bytes(key))
}

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

/// Whether `word` (lowercase) is one of the [`STOP_WORDS`]: a hash lookup, cheaper than a
/// binary search for every word of every description.
fn is_stop_word(word: &str) -> bool {
    static SET: LazyLock<Set<&str>> = LazyLock::new(|| STOP_WORDS.iter().copied().collect());
    SET.contains(word)
}

/// The stems of the words in `text` that are not [`STOP_WORDS`].
pub(crate) fn content_words(text: &str) -> Vec<String> {
    let mut stems = Vec::new();
    any_content_word(text, |stem| {
        stems.push(stem);
        false
    });
    stems
}

/// Whether `f` holds for one of [`content_words`], each stemmed only once the words before it
/// did not satisfy `f`: a rule that asks whether every word is of a kind stops at the first
/// that is not.
pub(crate) fn any_content_word(text: &str, mut f: impl FnMut(String) -> bool) -> bool {
    let mut word = String::new();
    let mut found = false;
    for_each_text_word(text, &mut |w| {
        if found {
            return;
        }
        word.clear();
        push_lowercase(&mut word, w);
        if !is_stop_word(&word) {
            found = f(stem(&word));
        }
    });
    found
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
    fn a_comparison_stop_word_is_found_by_its_number_as_by_its_text() {
        let mut words: Vec<String> = COMPARISON_STOP_WORDS
            .iter()
            .map(|w| (*w).to_owned())
            .collect();
        for w in COMPARISON_STOP_WORDS {
            words.extend([
                format!("{w}s"),
                format!("x{w}"),
                format!("{w}\0"),
                w.to_uppercase(),
            ]);
            words.push(w[..w.len() - 1].to_owned());
        }
        words.extend(
            [
                "",
                "\0",
                "abcdefg",
                "abcdefgh",
                "thisisalongword",
                "é",
                "toolé",
            ]
            .map(str::to_owned),
        );
        for word in &words {
            assert_eq!(
                is_comparison_stop_word(word),
                COMPARISON_STOP_WORDS.binary_search(&word.as_str()).is_ok(),
                "{word:?}"
            );
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

    /// [`stem`] the plain way, lowercasing every word it is given into a string of its own:
    /// the reference for the version that spares lowercase words the copy.
    fn stem_reference(word: &str) -> String {
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
        match base.as_str() {
            "fetch" | "retrieve" | "obtain" | "return" => "get".to_owned(),
            "find" | "lookup" | "query" => "search".to_owned(),
            "remove" | "erase" | "destroy" => "delete".to_owned(),
            "modify" | "change" | "edit" => "update".to_owned(),
            "make" | "new" | "add" | "insert" => "create".to_owned(),
            "uuid" | "guid" | "identifier" => "id".to_owned(),
            "maximum" => "max".to_owned(),
            "minimum" => "min".to_owned(),
            "num" => "number".to_owned(),
            "param" | "parameter" | "argument" | "arg" => "parameter".to_owned(),
            _ => base,
        }
    }

    /// The words of `name` split character by character, and split byte by byte when it is
    /// ASCII.
    fn both_splits(name: &str, digits: Digits) -> (Vec<&str>, Option<Vec<&str>>) {
        let mut unicode = Vec::new();
        split_unicode_identifier(name, digits, &mut |w| unicode.push(w));
        let ascii = name.is_ascii().then(|| {
            let mut ascii = Vec::new();
            split_ascii_identifier(name, digits, &mut |w| ascii.push(w));
            ascii
        });
        (unicode, ascii)
    }

    /// The words of free text split token by token, as non-ASCII text is.
    fn text_words_by_token(text: &str) -> Vec<&str> {
        let mut words = Vec::new();
        for token in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            split_unicode_identifier(token, Digits::Split, &mut |w| words.push(w));
        }
        words
    }

    /// Words at the edges of splitting and stemming: acronyms and their plurals at the end of
    /// a token, Turkish dotted capitals, final sigma, `’`, ligatures.
    const TRICKY_WORDS: &[&str] = &[
        "",
        "_",
        "IDs",
        "IDs.",
        "IDs s",
        "IDs-list",
        "HTTPServer",
        "URLsList",
        "IDsort",
        "A",
        "AB",
        "ABs",
        "ABsx",
        "v2Key",
        "k8s",
        "İstanbul",
        "İDs",
        "ΟΔΟΣ",
        "ΟΔΟΣ ΟΔΟΣ",
        "Don’t",
        "ÉtatCivil",
        "STATUS",
        "Categories",
        "SEARCHES",
        "Queries",
        "ARGs",
        "bus",
        "ßs",
        "ﬁles",
    ];

    #[test]
    fn ascii_and_unicode_splits_agree() {
        for name in TRICKY_WORDS
            .iter()
            .copied()
            .chain(crate::analysis::phrases::tests::TRICKY.iter().copied())
        {
            for digits in [Digits::Split, Digits::Keep] {
                let (unicode, ascii) = both_splits(name, digits);
                if let Some(ascii) = ascii {
                    assert_eq!(ascii, unicode, "{name:?}");
                }
            }
            let mut words = Vec::new();
            for_each_text_word(name, &mut |w| words.push(w));
            assert_eq!(words, text_words_by_token(name), "{name:?}");
        }
    }

    #[test]
    fn stems_agree_with_lowercasing_every_word() {
        for word in TRICKY_WORDS.iter().copied().chain([
            "Gets",
            "Retrieves",
            "UUID",
            "news",
            "News",
            "adds",
            "modifies",
        ]) {
            assert_eq!(stem(word), stem_reference(word), "{word:?}");
        }
    }

    proptest::proptest! {
        /// ASCII names split the same byte by byte as character by character, and free text
        /// splits the same as one identifier as token by token.
        #[test]
        fn ascii_splits_agree_on_random_text(
            text in r#"([a-zA-Z]{1,6}|[A-Z]{1,4}s?|[0-9]{1,3}|[ _.,:;'\-]{1,2}|é|İ|Σ|’){0,12}"#,
        ) {
            for digits in [Digits::Split, Digits::Keep] {
                let (unicode, ascii) = both_splits(&text, digits);
                if let Some(ascii) = ascii {
                    proptest::prop_assert_eq!(ascii, unicode);
                }
            }
            let mut words = Vec::new();
            for_each_text_word(&text, &mut |w| words.push(w));
            proptest::prop_assert_eq!(words, text_words_by_token(&text));
        }

        /// Stems are the same whether or not the word was lowercase already.
        #[test]
        fn stems_agree_on_random_words(
            word in r#"([a-zA-Z]{1,6}|ies|es|ches|ss|us|is|s|é|İ|Σ|’){0,4}"#,
        ) {
            proptest::prop_assert_eq!(stem(&word), stem_reference(&word));
            let lower = word.to_lowercase();
            proptest::prop_assert_eq!(stem(&lower), stem_reference(&lower));
        }
    }

    #[test]
    fn mentions_whole_words_only() {
        assert!(mentions_any("The Database id", &["database"]));
        assert!(!mentions_any("databases", &["database"]));
    }
}
