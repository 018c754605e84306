use crate::analysis::schema::Property;
use crate::analysis::words::any_text_word;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;

declare_rule! {
    /// ## What it does
    /// Finds date and time properties that do not say their format.
    ///
    /// A string property is a date when its name says so (`date`, `due_date`, `birthday`,
    /// `deadline`, `timestamp`, `startTime`, `createdAt`, `since`, `until` …) or its
    /// description does ("date", "deadline", "birthday", "timestamp"). It needs a date
    /// `format` (`date`, `date-time`, `time`, `duration`), a `pattern`, `examples`, or a
    /// format or example in its description ("ISO 8601", "YYYY-MM-DD", "HH:MM", "2026-08-18",
    /// "14:30", "RFC 3339"). An array of such strings may say it on its `items`.
    /// A number named like a timestamp needs its unit ("seconds since the Unix epoch").
    /// Closed sets (`enum`, `const`) are left alone.
    ///
    /// ## Why is this bad?
    /// "Date" admits `2026-08-18`, `18/08/2026`, `08/18/2026`, `Aug 18` and `tomorrow`. The
    /// model picks one, the handler parses another, and the call fails — or, worse, succeeds
    /// on the wrong day (the 8th of December). A number may be seconds or milliseconds.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {
    ///   "date": {"type": "string", "description": "Date"},
    ///   "expires_at": {"type": "integer", "description": "When the link expires"}
    /// }}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {
    ///   "date": {"type": "string", "format": "date", "description": "Day of the measurement, ISO 8601 YYYY-MM-DD, e.g. \"2026-08-18\""},
    ///   "expires_at": {"type": "integer", "description": "When the link expires, in seconds since the Unix epoch, e.g. 1787011200"}
    /// }}
    /// ```
    ///
    /// ## References
    /// - Dates are described as ISO 8601 `YYYY-MM-DD`, with an example
    /// - JSON Schema 2020-12 Validation, §7.3.1 Dates, Times, and Duration: <https://json-schema.org/draft/2020-12/json-schema-validation#section-7.3.1>
    /// - RFC 3339: <https://www.rfc-editor.org/rfc/rfc3339>
    pub struct DateWithoutFormat {
        code: "TP108",
        name: "date-without-format",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// Words of a property name that make it a date or time.
const NAME_WORDS: &[&str] = &[
    "date",
    "dates",
    "datetime",
    "time",
    "timestamp",
    "deadline",
    "birthday",
    "birthdate",
    "dob",
    "expiry",
    "expiration",
    "since",
    "until",
    "when",
];

/// Words of a property name that make it something else: a zone, a format, a duration.
const NOT_A_DATE: &[&str] = &[
    "zone", "tz", "format", "limit", "spent", "elapsed", "duration", "interval", "period", "unit",
    "units", "budget", "range", "window", "type", "id", "ids", "count", "seconds", "minutes",
    "hours", "days", "weeks", "months", "years",
    // Free text may mention a date ("Happy birthday!") without being one.
    "message", "text", "note", "notes", "comment", "title", "name", "body", "content", "subject",
    "reason", "greeting", "caption", "label", "query", "summary",
];

/// Words of a description that make a string property a date.
const DESCRIPTION_WORDS: &[&str] = &[
    "date",
    "dates",
    "datetime",
    "timestamp",
    "deadline",
    "birthday",
    "birthdate",
];

/// `format` values that fix a date or time representation.
const DATE_FORMATS: &[&str] = &[
    "date",
    "date-time",
    "time",
    "duration",
    "iso8601",
    "timestamp",
    "unix-time",
];

/// Phrases in a description that fix the representation.
const FORMAT_HINTS: &[&str] = &[
    "yyyy",
    "iso 8601",
    "iso-8601",
    "iso8601",
    "rfc 3339",
    "rfc3339",
    "rfc 2822",
    "rfc2822",
    "hh:mm",
    "mm/dd",
    "dd/mm",
    "dd.mm",
    "unix",
    "epoch",
    "natural language",
    "relative",
];

/// Digit templates of written dates and times (`9` is any digit).
const EXAMPLE_TEMPLATES: &[&str] = &[
    "9999-99-99",
    "9:99",
    "9/9/99",
    "9/99/99",
    "99/9/99",
    "99/99/99",
    "99.99.9999",
];

/// Units that say what a numeric timestamp counts.
const NUMERIC_HINTS: &[&str] = &[
    "second",
    "seconds",
    "millisecond",
    "milliseconds",
    "ms",
    "epoch",
    "unix",
    "minutes",
    "hours",
];

/// Whether `text` holds a written date or time such as `2026-08-18` or `14:30`.
fn has_written_example(text: &str) -> bool {
    let bytes = text.as_bytes();
    (0..bytes.len()).any(|start| {
        EXAMPLE_TEMPLATES.iter().any(|template| {
            let t = template.as_bytes();
            bytes.get(start..start + t.len()).is_some_and(|window| {
                window.iter().zip(t).all(|(&b, &p)| {
                    if p == b'9' {
                        b.is_ascii_digit()
                    } else {
                        b == p
                    }
                })
            })
        })
    })
}

/// Whether the property is a date or time, by its name or (for strings) its description.
fn is_date(words: &[String], description: &str, is_string: bool) -> bool {
    if words.iter().any(|w| NOT_A_DATE.contains(&w.as_str())) {
        return false;
    }
    let by_name = words.iter().any(|w| NAME_WORDS.contains(&w.as_str()))
        || (words.len() >= 2 && words.last().is_some_and(|w| w == "at"));
    by_name || (is_string && any_text_word(description, |w| DESCRIPTION_WORDS.contains(&w)))
}

/// Whether a schema's keywords fix a date representation: a date `format`, a `pattern`, or
/// `examples`.
fn keywords_fix_format<'v>(keyword: impl Fn(&str) -> Option<&'v Value>) -> bool {
    keyword("format")
        .and_then(Value::as_str)
        .is_some_and(|f| DATE_FORMATS.contains(&f))
        || keyword("pattern").is_some()
        || keyword("examples").is_some_and(|e| e.as_array().is_none_or(|a| !a.is_empty()))
}

/// Whether a string property (or an array of strings, through its `items`) fixes its
/// representation.
fn string_has_format(property: &Property<'_, '_>, description: &str) -> bool {
    let items = property.keyword("items").and_then(Value::as_object);
    let items_description = items
        .and_then(|i| i.get("description"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let lower = format!("{description} {items_description}").to_lowercase();
    keywords_fix_format(|k| property.keyword(k))
        || items.is_some_and(|i| keywords_fix_format(|k| i.get(k)))
        || FORMAT_HINTS.iter().any(|h| lower.contains(h))
        || has_written_example(&lower)
}

impl Rule for DateWithoutFormat {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for DateWithoutFormat {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let i = view.index;
        view.for_each_property(&mut |property| {
            if property.is_closed() {
                return;
            }
            let description = property.description().unwrap_or_default();
            let words = property.name_words();
            let is_string = property.may_be("string")
                || (property.is_array()
                    && property
                        .keyword("items")
                        .and_then(|i| i.get("type"))
                        .and_then(Value::as_str)
                        == Some("string"));
            if !is_date(&words, description, is_string) {
                return;
            }
            let is_number = property.may_be("integer") || property.may_be("number");
            let violation = if is_string && !string_has_format(property, description) {
                let help = if words
                    .iter()
                    .any(|w| ["time", "timestamp", "datetime", "at"].contains(&w.as_str()))
                {
                    "add \"format\": \"date-time\" and say the format with an example in the description (Start of the meeting, RFC 3339, e.g. \"2026-08-18T14:30:00Z\")"
                } else {
                    "add \"format\": \"date\" and say the format with an example in the description (Day of the meal, ISO 8601 YYYY-MM-DD, e.g. \"2026-08-18\")"
                };
                Some((
                    format!(
                        "the date property {:?} does not say its format (no date \"format\", \"pattern\" or \"examples\", and no format or example in its description)",
                        property.name
                    ),
                    if property.is_array() {
                        help.replacen("add \"format\"", "give its items \"format\"", 1)
                    } else {
                        help.to_owned()
                    },
                ))
            } else if !is_string
                && is_number
                && !any_text_word(description, |w| NUMERIC_HINTS.contains(&w))
            {
                Some((
                    format!(
                        "the timestamp property {:?} does not say what its number counts (seconds or milliseconds, since when)",
                        property.name
                    ),
                    "say the unit and the origin with an example (in seconds since the Unix epoch, e.g. 1787011200)".to_owned(),
                ))
            } else {
                None
            };
            if let Some((message, help)) = violation {
                out.push(Violation {
                    tool: Some(i),
                    pointer: property.pointer.to_owned(),
                    message,
                    help: help.into(),
                });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::has_written_example;

    #[test]
    fn written_examples() {
        assert!(has_written_example("e.g. \"2026-08-18\""));
        assert!(has_written_example("at 14:30"));
        assert!(has_written_example("like 8/18/26"));
        assert!(!has_written_example("1 to 7 days"));
        assert!(!has_written_example("ratio 3:1"));
    }
}
