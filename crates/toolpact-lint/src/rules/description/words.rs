//! Words the description rules compare: identifiers split at `_`, `-`, `.` and case changes,
//! text split at anything that is not a letter or a digit, both lowercased and reduced to a
//! rough stem, so that "Gets" meets `get` and "gifts" meets `gift`.
//!
//! This is deliberately small: the rules only ask "does this text say anything the name does
//! not?", and a wrong "yes" (a missed finding) is cheaper than a wrong "no" (a false alarm).

/// The words of an identifier, lowercased: `get_weather` → get, weather; `maxBudget` → max,
/// budget; `userID` → user, id; `HTTPServer` → http, server; `tool1` → tool, 1.
pub(crate) fn identifier_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut words);
            continue;
        }
        if let Some(&prev) = i.checked_sub(1).and_then(|p| chars.get(p)) {
            let next = chars.get(i + 1).copied();
            // `IDs` at the end of a name is a plural acronym, not `I` + `Ds`.
            let plural_acronym =
                next == Some('s') && !chars.get(i + 2).is_some_and(|c| c.is_lowercase());
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_alphabetic() && c.is_numeric())
                || (prev.is_numeric() && c.is_alphabetic())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(char::is_lowercase)
                    && !plural_acronym);
            if boundary {
                flush(&mut current, &mut words);
            }
        }
        current.extend(c.to_lowercase());
    }
    flush(&mut current, &mut words);
    words
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

/// The words of free text, lowercased; identifiers inside it (`foodId`, `search_foods`) are
/// split like names.
pub(crate) fn text_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .flat_map(identifier_words)
        .collect()
}

/// A rough stem: plurals and third-person verbs lose their `s`, and a few synonyms meet, so
/// that "Retrieves the forecasts" compares equal to `get_forecast`.
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

/// Function words that carry no meaning on their own.
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

/// The stems of the words in `text` that are not stop words.
pub(crate) fn content_words(text: &str) -> Vec<String> {
    text_words(text)
        .iter()
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| stem(w))
        .collect()
}

/// The stems of the words of an identifier (stop words kept: in a name they were chosen).
pub(crate) fn name_stems(name: &str) -> Vec<String> {
    identifier_words(name).iter().map(|w| stem(w)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_identifiers_at_case_and_separators() {
        assert_eq!(identifier_words("get_weather"), ["get", "weather"]);
        assert_eq!(identifier_words("maxBudget"), ["max", "budget"]);
        assert_eq!(identifier_words("userID"), ["user", "id"]);
        assert_eq!(identifier_words("HTTPServer"), ["http", "server"]);
        assert_eq!(identifier_words("couponIDs"), ["coupon", "ids"]);
        assert_eq!(identifier_words("URLsList"), ["urls", "list"]);
        assert_eq!(identifier_words("tool1"), ["tool", "1"]);
        assert_eq!(
            identifier_words("admin.tools-list"),
            ["admin", "tools", "list"]
        );
        assert!(identifier_words("__").is_empty());
    }

    #[test]
    fn splits_text_and_the_identifiers_in_it() {
        assert_eq!(
            text_words("Pass the foodId from search_foods."),
            ["pass", "the", "food", "id", "from", "search", "foods"]
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
}
