//! Argument validation with errors a model can act on.
//!
//! The compiled schema decides what is valid; this module turns each violation into an
//! [`ArgumentError`] with the JSON pointer, what was expected, what was given, and one short
//! sentence for the model. Errors come in a fixed order: missing required properties first,
//! then wrong types, then other constraint violations (enum, range, length, pattern, format),
//! then unknown properties. The success path does no work beyond the validator's own.

use crate::json::{child_pointer, json_type, unescape_token};
use jsonschema::Validator;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// How many errors a message lists before it says "and K more".
pub const DEFAULT_MESSAGE_LIMIT: usize = 8;

/// The class of an argument error, in the order errors are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ArgumentErrorKind {
    /// A required property is missing.
    Missing,
    /// A value has the wrong JSON type.
    WrongType,
    /// A value is not one of the allowed values (`enum`, `const`).
    NotAllowed,
    /// A number is out of range (`minimum`, `maximum`, `multipleOf`, …).
    OutOfRange,
    /// A string, array or object is too short or too long.
    Length,
    /// A string does not match `pattern`.
    Pattern,
    /// A string does not match `format`.
    Format,
    /// A value matches none (or more than one) of the allowed shapes, or another rule.
    Other,
    /// A property the schema does not declare (`additionalProperties: false`).
    Unknown,
}

impl ArgumentErrorKind {
    /// The word used in text output.
    pub fn as_str(self) -> &'static str {
        match self {
            ArgumentErrorKind::Missing => "missing",
            ArgumentErrorKind::WrongType => "wrong-type",
            ArgumentErrorKind::NotAllowed => "not-allowed",
            ArgumentErrorKind::OutOfRange => "out-of-range",
            ArgumentErrorKind::Length => "length",
            ArgumentErrorKind::Pattern => "pattern",
            ArgumentErrorKind::Format => "format",
            ArgumentErrorKind::Other => "other",
            ArgumentErrorKind::Unknown => "unknown",
        }
    }

    fn rank(self) -> u8 {
        match self {
            ArgumentErrorKind::Missing => 0,
            ArgumentErrorKind::WrongType => 1,
            ArgumentErrorKind::Unknown => 3,
            _ => 2,
        }
    }
}

/// One problem with the arguments of a call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArgumentError {
    /// What kind of problem.
    pub kind: ArgumentErrorKind,
    /// JSON pointer to the argument (for a missing or unknown property, the property itself).
    pub pointer: String,
    /// What the schema expects, in short (`integer`, `one of "a", "b"`, `at least 1`).
    pub expected: String,
    /// What was given, as JSON, or `None` when nothing was (a missing property).
    pub got: Option<Value>,
    /// One sentence for the model: what is wrong and what to send instead.
    pub message: String,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Every problem with one call's arguments, in report order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct ArgumentErrors {
    /// The errors: missing, then wrong types, then constraints, then unknown properties.
    pub errors: Vec<ArgumentError>,
}

impl ArgumentErrors {
    /// The message for the model, listing at most `limit` errors and then "and K more".
    pub fn message(&self, tool: &str, limit: usize) -> String {
        let n = self.errors.len();
        let mut out = format!(
            "Invalid arguments for {tool}: {n} problem{}. Fix {} and call {tool} again.",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        );
        for error in self.errors.iter().take(limit) {
            out.push_str("\n- ");
            out.push_str(&error.message);
        }
        if n > limit {
            out.push_str(&format!("\n- and {} more.", n - limit));
        }
        out
    }
}

/// Validates `arguments` against a compiled schema; `schema` is the same schema as JSON, used
/// to name expected types and suggest the closest declared property.
pub(crate) fn check(
    validator: &Validator,
    schema: &Value,
    arguments: &Value,
) -> Result<(), ArgumentErrors> {
    if validator.is_valid(arguments) {
        return Ok(());
    }
    let mut errors: Vec<ArgumentError> = Vec::new();
    for error in validator.iter_errors(arguments) {
        let at = error.instance_path().as_str().to_owned();
        let schema_path = error.schema_path().as_str();
        let parent_schema = schema.pointer(parent(schema_path));
        let got = error.instance().clone().into_owned();
        match error.kind() {
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                let pointer = child_pointer(&at, name);
                let declared = parent_schema
                    .and_then(|s| s.get("properties"))
                    .and_then(|p| p.get(name));
                let expected = declared.map_or_else(|| "a value".to_owned(), describe_type);
                let hint = declared
                    .and_then(|d| d.get("description"))
                    .and_then(Value::as_str)
                    .map(|d| format!(": {}", first_sentence(d)))
                    .unwrap_or_default();
                errors.push(ArgumentError {
                    kind: ArgumentErrorKind::Missing,
                    message: format!(
                        "`{}` is required ({expected}){hint}.",
                        display_pointer(&pointer)
                    )
                    .replace("..", "."),
                    pointer,
                    expected,
                    got: None,
                });
            }
            ValidationErrorKind::Type { kind } => {
                let expected = match kind {
                    TypeKind::Single(t) => article(&t.to_string()),
                    TypeKind::Multiple(set) => {
                        let names: Vec<String> = set.iter().map(|t| t.to_string()).collect();
                        names.join(" or ")
                    }
                };
                errors.push(ArgumentError {
                    kind: ArgumentErrorKind::WrongType,
                    message: format!(
                        "`{}` must be {expected}, not {}.",
                        display_pointer(&at),
                        describe_value(&got)
                    ),
                    pointer: at,
                    expected,
                    got: Some(got),
                });
            }
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                let declared: Vec<&str> = parent_schema
                    .and_then(|s| s.get("properties"))
                    .and_then(Value::as_object)
                    .map(|p| p.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                for name in unexpected {
                    let pointer = child_pointer(&at, name);
                    let suggestion = closest(name, &declared)
                        .map(|c| format!(" Did you mean `{c}`?"))
                        .unwrap_or_default();
                    let allowed = if declared.is_empty() {
                        "no properties here".to_owned()
                    } else {
                        format!("only {}", list(declared.iter().map(|d| format!("`{d}`"))))
                    };
                    errors.push(ArgumentError {
                        kind: ArgumentErrorKind::Unknown,
                        message: format!(
                            "`{}` is not an argument of this tool; remove it (it accepts {allowed}).{suggestion}",
                            display_pointer(&pointer)
                        ),
                        expected: allowed,
                        got: got.get(name).cloned(),
                        pointer,
                    });
                }
            }
            other => {
                let (kind, expected) = constraint(other);
                let subject = display_pointer(&at);
                let message = match kind {
                    ArgumentErrorKind::NotAllowed => {
                        format!(
                            "`{subject}` must be {expected}, not {}.",
                            describe_value(&got)
                        )
                    }
                    ArgumentErrorKind::Format | ArgumentErrorKind::Pattern => {
                        format!(
                            "`{subject}` must be {expected}; {} does not match.",
                            describe_value(&got)
                        )
                    }
                    _ => format!(
                        "`{subject}` must be {expected}; got {}.",
                        describe_value(&got)
                    ),
                };
                errors.push(ArgumentError {
                    kind,
                    pointer: at,
                    expected,
                    got: Some(got),
                    message,
                });
            }
        }
    }
    // A stable sort keeps the validator's order (document order) within each class.
    errors.sort_by_key(|e| e.kind.rank());
    errors.dedup_by(|a, b| a.pointer == b.pointer && a.kind == b.kind && a.message == b.message);
    Err(ArgumentErrors { errors })
}

fn constraint(kind: &ValidationErrorKind) -> (ArgumentErrorKind, String) {
    use ArgumentErrorKind as K;
    use ValidationErrorKind as V;
    match kind {
        V::Enum { options } => {
            let values = options
                .as_array()
                .map(|o| list(o.iter().map(Value::to_string)))
                .unwrap_or_default();
            (K::NotAllowed, format!("one of {values}"))
        }
        V::Constant { expected_value } => (K::NotAllowed, format!("exactly {expected_value}")),
        V::Minimum { limit } => (K::OutOfRange, format!("at least {limit}")),
        V::Maximum { limit } => (K::OutOfRange, format!("at most {limit}")),
        V::ExclusiveMinimum { limit } => (K::OutOfRange, format!("greater than {limit}")),
        V::ExclusiveMaximum { limit } => (K::OutOfRange, format!("less than {limit}")),
        V::MultipleOf { multiple_of } => (K::OutOfRange, format!("a multiple of {multiple_of}")),
        V::MinLength { limit } => (
            K::Length,
            format!("at least {limit} character{}", plural(*limit)),
        ),
        V::MaxLength { limit } => (
            K::Length,
            format!("at most {limit} character{}", plural(*limit)),
        ),
        V::MinItems { limit } => (
            K::Length,
            format!("a list of at least {limit} item{}", plural(*limit)),
        ),
        V::MaxItems { limit } => (
            K::Length,
            format!("a list of at most {limit} item{}", plural(*limit)),
        ),
        V::MinProperties { limit } => (
            K::Length,
            format!(
                "an object with at least {limit} propert{}",
                if *limit == 1 { "y" } else { "ies" }
            ),
        ),
        V::MaxProperties { limit } => (
            K::Length,
            format!(
                "an object with at most {limit} propert{}",
                if *limit == 1 { "y" } else { "ies" }
            ),
        ),
        V::UniqueItems => (K::Other, "a list without repeated items".to_owned()),
        V::Pattern { pattern } => (
            K::Pattern,
            format!("a string matching the regular expression {pattern}"),
        ),
        V::Format { format } => (K::Format, format_phrase(format)),
        V::AnyOf { .. } | V::OneOfNotValid { .. } => (
            K::Other,
            "a value matching one of the allowed shapes".to_owned(),
        ),
        V::OneOfMultipleValid { .. } => (
            K::Other,
            "a value matching exactly one of the allowed shapes".to_owned(),
        ),
        V::Not { .. } => (K::Other, "a value the schema does not forbid".to_owned()),
        V::FalseSchema => (K::Other, "absent (no value is allowed here)".to_owned()),
        V::Contains => (
            K::Other,
            "a list containing at least one matching item".to_owned(),
        ),
        other => (
            K::Other,
            format!("valid ({other:?})").chars().take(200).collect(),
        ),
    }
}

fn format_phrase(format: &str) -> String {
    match format {
        "date" => "a date as YYYY-MM-DD (format date)".to_owned(),
        "date-time" => {
            "a date and time in RFC 3339, such as 2026-11-29T18:30:00Z (format date-time)"
                .to_owned()
        }
        "time" => "a time such as 18:30:00Z (format time)".to_owned(),
        "email" => "an email address (format email)".to_owned(),
        "uri" => "an absolute URI such as https://example.com (format uri)".to_owned(),
        "uuid" => "a UUID (format uuid)".to_owned(),
        other => format!("a string in the {other} format"),
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The schema path of the keyword's parent schema: `/properties/a/required` → `/properties/a`.
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

/// `/days` → `days`, `/items/0/name` → `items[0].name`: what a model recognises.
pub fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        return "arguments".to_owned();
    }
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let token = unescape_token(token);
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{token}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

fn article(kind: &str) -> String {
    match kind {
        "integer" | "object" | "array" => format!("an {kind}"),
        "null" => "null".to_owned(),
        other => format!("a {other}"),
    }
}

fn describe_type(schema: &Value) -> String {
    match schema.get("type") {
        Some(Value::String(t)) => article(t),
        Some(Value::Array(ts)) => list(ts.iter().filter_map(Value::as_str).map(article)),
        _ => match schema.get("enum").and_then(Value::as_array) {
            Some(values) => format!("one of {}", list(values.iter().map(Value::to_string))),
            None => "a value".to_owned(),
        },
    }
}

fn describe_value(value: &Value) -> String {
    let text = value.to_string();
    let shown = if text.chars().count() > 60 {
        format!("{}…", text.chars().take(60).collect::<String>())
    } else {
        text
    };
    match json_type(value) {
        "null" => "null".to_owned(),
        kind => format!("the {kind} {shown}"),
    }
}

/// The longest excerpt of a description a message quotes, in characters.
const EXCERPT_LIMIT: usize = 160;

/// Words whose period does not end a sentence.
const ABBREVIATIONS: [&str; 12] = [
    "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "excl", "no", "fig", "mr", "dr",
];

/// The first sentence of a description, for a message: the text up to the first period
/// followed by a space that ends a sentence, not an abbreviation ("e.g.", "i.e.", "etc.",
/// "U.S.", an initial) and not inside a parenthesis left open. A first sentence longer than
/// [`EXCERPT_LIMIT`] characters is cut after its last whole word within the limit, with "…".
fn first_sentence(text: &str) -> String {
    let text = text.trim();
    let mut end = text.len();
    for (i, _) in text.match_indices(". ") {
        let before = &text[..i];
        let word = before
            .rsplit(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or_default();
        let abbreviation = word.contains('.')
            || word.chars().count() == 1
            || ABBREVIATIONS.contains(&word.to_lowercase().as_str());
        let open = before.matches('(').count() > before.matches(')').count();
        if !abbreviation && !open {
            end = i + 1;
            break;
        }
    }
    let sentence = &text[..end];
    if sentence.chars().count() <= EXCERPT_LIMIT {
        return sentence.to_owned();
    }
    let cut: String = sentence.chars().take(EXCERPT_LIMIT).collect();
    let words = cut
        .rfind(char::is_whitespace)
        .map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", words.trim_end_matches([',', ';', ':', ' ']))
}

fn list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The declared name closest to `name`, when it is close enough to be a likely typo or a
/// different spelling (`colour` → `color`, `cityName` → `city_name`): the measure every
/// suggestion uses ([`crate::wording::closest_name`]).
fn closest<'a>(name: &str, declared: &[&'a str]) -> Option<&'a str> {
    crate::wording::closest_name(name, declared.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_sentence_does_not_end_at_an_abbreviation() {
        for (description, sentence) in [
            ("The city. Not the country.", "The city."),
            (
                "A date, e.g. 2024-01-01. Any year.",
                "A date, e.g. 2024-01-01.",
            ),
            (
                "The country (i.e. U.S. or Canada). Two letters.",
                "The country (i.e. U.S. or Canada).",
            ),
            ("Signed by J. Smith. Or not.", "Signed by J. Smith."),
            ("No period at all", "No period at all"),
        ] {
            assert_eq!(first_sentence(description), sentence, "{description}");
        }
        let long = format!("{} end. Second.", "word ".repeat(60));
        let excerpt = first_sentence(&long);
        assert!(excerpt.ends_with("word…"), "{excerpt}");
        assert!(excerpt.chars().count() <= EXCERPT_LIMIT + 1, "{excerpt}");
    }

    #[test]
    fn a_missing_property_quotes_its_description_whole() {
        let schema = json!({"type": "object", "required": ["country"], "properties": {
            "country": {"type": "string",
                        "description": "Where it ships (e.g. US, i.e. the U.S. code). Two letters."}}});
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors = check(&validator, &schema, &json!({})).unwrap_err().errors;
        assert_eq!(
            errors[0].message,
            "`country` is required (a string): Where it ships (e.g. US, i.e. the U.S. code)."
        );
    }

    fn forecast() -> (Validator, Value) {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 2, "description": "City name. Not a country."},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}
            },
            "required": ["city"],
            "additionalProperties": false
        });
        (jsonschema::validator_for(&schema).unwrap(), schema)
    }

    fn errors(args: Value) -> Vec<(ArgumentErrorKind, String, String)> {
        let (v, s) = forecast();
        check(&v, &s, &args)
            .err()
            .map(|e| {
                e.errors
                    .into_iter()
                    .map(|e| (e.kind, e.pointer, e.message))
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn valid_arguments_pass() {
        assert!(errors(json!({"city": "Lisbon", "days": 3})).is_empty());
        // 3.0 is an integer in JSON Schema.
        assert!(errors(json!({"city": "Lisbon", "days": 3.0})).is_empty());
    }

    #[test]
    fn missing_comes_before_wrong_type_before_constraints_before_unknown() {
        let found = errors(json!({"colour": "red", "units": "kelvin", "days": "3"}));
        let kinds: Vec<ArgumentErrorKind> = found.iter().map(|e| e.0).collect();
        assert_eq!(
            kinds,
            [
                ArgumentErrorKind::Missing,
                ArgumentErrorKind::WrongType,
                ArgumentErrorKind::NotAllowed,
                ArgumentErrorKind::Unknown
            ]
        );
        assert_eq!(found[0].1, "/city");
        assert_eq!(found[0].2, "`city` is required (a string): City name.");
        assert_eq!(
            found[1].2,
            "`days` must be an integer, not the string \"3\"."
        );
        assert_eq!(
            found[2].2,
            "`units` must be one of \"celsius\" or \"fahrenheit\", not the string \"kelvin\"."
        );
        assert!(
            found[3]
                .2
                .starts_with("`colour` is not an argument of this tool"),
            "{}",
            found[3].2
        );
    }

    #[test]
    fn a_boolean_is_never_an_integer() {
        let found = errors(json!({"city": "Lisbon", "days": true}));
        assert_eq!(found[0].0, ArgumentErrorKind::WrongType);
        assert_eq!(
            found[0].2,
            "`days` must be an integer, not the boolean true."
        );
    }

    #[test]
    fn ranges_lengths_and_suggestions() {
        let found = errors(json!({"city": "L", "days": 0, "unit": "celsius"}));
        assert_eq!(
            found[0].2,
            "`city` must be at least 2 characters; got the string \"L\"."
        );
        assert_eq!(found[1].2, "`days` must be at least 1; got the integer 0.");
        assert!(
            found[2].2.ends_with("Did you mean `units`?"),
            "{}",
            found[2].2
        );
    }

    #[test]
    fn the_message_is_bounded() {
        let (v, s) = forecast();
        let mut args = serde_json::Map::new();
        for i in 0..20 {
            args.insert(format!("extra{i}"), json!(i));
        }
        let errs = check(&v, &s, &Value::Object(args)).unwrap_err();
        let message = errs.message("get_forecast", 5);
        assert_eq!(message.lines().count(), 1 + 5 + 1);
        assert!(message.ends_with("- and 16 more."), "{message}");
    }

    #[test]
    fn pointers_read_as_paths() {
        assert_eq!(display_pointer("/items/0/name"), "items[0].name");
        assert_eq!(display_pointer(""), "arguments");
        assert_eq!(display_pointer("/a~1b"), "a/b");
    }
}
