use crate::analysis::schema::Property;
use crate::analysis::words::{CONTAINER_WORDS, FILLER_WORDS, any_content_word, name_stems};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds property descriptions that say nothing the property's name does not.
    ///
    /// Once stop words and empty nouns ("data", "value", "input", "parameter", "filter",
    /// "string") are removed, only words of the name are left: `"city": "The city"`,
    /// `"date": "Date"`, `"relationship": "Filter parameter"`, `"maxBudget": "Budget"`. For
    /// arrays, words that only name the container ("list", "array", "items") say nothing
    /// either. A description with an example (a digit, a quoted value, "e.g.") is never
    /// vague.
    ///
    /// ## Why is this bad?
    /// A description is where the model learns what goes in and in what format: which city
    /// spelling, which date format, which unit, which of several meanings. A restatement of
    /// the name looks documented in review but leaves the model to guess, and it invents
    /// values ("bestie" for a relationship).
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {
    ///   "date": {"type": "string", "description": "Date"},
    ///   "relationship": {"type": "string", "description": "Filter parameter"},
    ///   "tags": {"type": "array", "items": {"type": "string"}, "description": "List of tags"}
    /// }}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {
    ///   "date": {"type": "string", "format": "date", "description": "Day of the measurement, ISO 8601 YYYY-MM-DD, e.g. \"2026-08-18\""},
    ///   "relationship": {"type": "string", "enum": ["friend", "partner", "colleague"], "description": "How the recipient relates to the user: friend, partner (romantic) or colleague (co-worker)"},
    ///   "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "Short interest tags to filter by, e.g. [\"books\", \"boardgames\"]"}
    /// }}
    /// ```
    ///
    /// ## References
    /// - A property description says what goes in and in what format, and an array's says what
    ///   the list is
    pub struct VaguePropertyDescription {
        code: "TP107",
        name: "vague-property-description",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// Whether the text gives an example as a digit or a quoted value. A single quote counts only
/// where it opens a quotation, not in "user's".
fn has_digit_or_quote(description: &str) -> bool {
    let mut previous = ' ';
    description.chars().any(|c| {
        let opens = matches!(c, '\'' | '‘') && !previous.is_alphanumeric();
        previous = c;
        c.is_ascii_digit() || opens || "\"`“”«»".contains(c)
    })
}

/// Whether the text gives an example in words: "e.g.", "for example", "such as".
fn has_example_phrase(description: &str) -> bool {
    let lower = description.to_lowercase();
    ["e.g", "eg.", "for example", "for instance", "such as"]
        .iter()
        .any(|p| lower.contains(p))
}

/// Whether `description` says nothing beyond the property's name.
pub(crate) fn is_vague(name: &str, description: &str, is_array: bool) -> bool {
    // The cheap test first; then the words, read up to the first that says something the
    // name does not (most descriptions have one); and only a description of nothing else is
    // searched for the phrases of an example.
    if has_digit_or_quote(description) {
        return false;
    }
    let name = name_stems(name);
    let says_more = any_content_word(description, |w| {
        !(name.contains(&w)
            || FILLER_WORDS.contains(&w.as_str())
            || (is_array && CONTAINER_WORDS.contains(&w.as_str())))
    });
    !says_more && !has_example_phrase(description)
}

/// What to write instead, for a property of this shape.
fn suggestion(property: &Property<'_, '_>) -> &'static str {
    if property.is_closed() {
        "say what the choice means and what each value stands for"
    } else if property.is_array() {
        "say what one item of the list is, with an example (Short interest tags, e.g. [\"books\", \"boardgames\"])"
    } else {
        let types = property.types();
        if types.contains("boolean") {
            "say what true means and what happens by default (Whether to include archived orders; default false)"
        } else if types.contains("integer") || types.contains("number") {
            "say what the number counts or measures, its unit and range, with an example (Most the user wants to spend, in euros, e.g. 40)"
        } else if types.contains("object") {
            "say what the object describes and what its fields hold (The delivery address: street, city and postal code)"
        } else {
            "say what goes in, in which format, with an example (City name, e.g. \"Lisbon\")"
        }
    }
}

impl Rule for VaguePropertyDescription {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for VaguePropertyDescription {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let i = view.index;
        view.for_each_property(&mut |property| {
            let Some(description) = property.description() else {
                return;
            };
            if !is_vague(property.name, description, property.is_array()) {
                return;
            }
            out.push(Violation {
                tool: Some(i),
                message: format!(
                    "the property {:?} is described only as {description:?}, which tells the model nothing about what goes in",
                    property.name
                ),
                help: suggestion(property).into(),
                pointer: property.pointer.to_owned(),
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::is_vague;

    #[test]
    fn vague_descriptions_and_near_misses() {
        assert!(is_vague("city", "The city", false));
        assert!(is_vague("date", "Date", false));
        assert!(is_vague("relationship", "Filter parameter", false));
        assert!(is_vague("maxBudget", "Budget", false));
        assert!(is_vague("payload", "Input data.", false));
        assert!(is_vague("giftId", "UUID of the gift.", false));
        assert!(is_vague("tags", "List of tags", true));
        assert!(!is_vague("tags", "List of tags", false));
        assert!(is_vague("city", "The city's name", false));
        assert!(!is_vague(
            "query",
            "Search keywords, e.g. 'wireless mouse'",
            false
        ));
        assert!(!is_vague(
            "city",
            "City name, for example \"Lisbon\"",
            false
        ));
        assert!(!is_vague("unit", "Temperature unit", false));
        assert!(!is_vague("meal", "Meal to add the food to", false));
        assert!(!is_vague("servings", "Number of servings, e.g. 1.5", false));
        assert!(!is_vague("priority", "Ticket priority", false));
    }
}
