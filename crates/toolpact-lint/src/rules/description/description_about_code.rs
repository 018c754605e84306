use crate::context::{Context, ToolView};
use crate::rule::{ChecksTools, Rule, RuleMeta, Violation, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds descriptions and titles that speak about the code rather than the tool: markers
    /// left for developers (`TODO`, `FIXME`, `HACK`, in capitals), and notes about how the
    /// definition is written: doc comments, attributes (`#[serde(...)]`, `#[schemars(...)]`,
    /// `#[derive(...)]`), "this struct", "this enum". Tools defined from Rust types take
    /// their descriptions from doc comments, so a note meant for the next developer reaches
    /// the model.
    ///
    /// ## Why is this bad?
    /// Everything in a description is read by the model on every request. A note about the
    /// code costs tokens and tells the model nothing about when to call the tool or what to
    /// send; a `TODO` says the tool may not work as described, and the model cannot tell
    /// which part.
    ///
    /// ## Example
    /// ```json
    /// {"name": "suggest_gifts", "description": "Gift ideas for a person. TODO: paginate.", "inputSchema": {"type": "object", "properties": {"ageGroup": {"type": "string", "enum": ["kid", "adult"], "description": "Whom a gift suits by age. The variants carry no doc comments so that the schema stays a plain enum."}}}}
    /// ```
    ///
    /// ## Use instead
    /// Keep notes for developers in plain code comments (`//` in Rust), which do not become
    /// descriptions:
    /// ```json
    /// {"name": "suggest_gifts", "description": "Gift ideas for a person, up to 10. Call this when the user asks what to give someone.", "inputSchema": {"type": "object", "properties": {"ageGroup": {"type": "string", "enum": ["kid", "adult"], "description": "Whom a gift suits by age: kid (3 to 12) or adult (18 and over)."}}}}
    /// ```
    ///
    /// ## References
    /// - Requirement R3: the definition is the prompt; the model reads nothing else
    /// - Anthropic, "Define tools": descriptions are the most important factor in tool performance
    pub struct DescriptionAboutCode {
        code: "TP112",
        name: "description-about-code",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// Markers left for developers, matched as whole words in capitals (`todo list` is a thing
/// users have; `TODO:` is a note).
const MARKERS: &[&str] = &["TODO", "FIXME", "HACK"];

/// Notes about how the definition is written, matched in any case.
const CODE_NOTES: &[&str] = &[
    "doc comment",
    "#[derive",
    "#[serde",
    "#[schemars",
    "serde attribute",
    "schemars attribute",
    "this struct",
    "this enum",
];

/// What in `text` speaks about the code, as written there.
fn notes(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in MARKERS {
        let mut from = 0;
        while let Some(at) = text[from..].find(marker).map(|i| i + from) {
            let end = at + marker.len();
            let before = text[..at].chars().next_back();
            let after = text[end..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            if !word(before) && !word(after) {
                found.push((*marker).to_owned());
                break;
            }
            from = end;
        }
    }
    // ASCII lowercasing keeps byte offsets, so the note is quoted as written.
    let lower = text.to_ascii_lowercase();
    for note in CODE_NOTES {
        if let Some(at) = lower.find(note) {
            found.push(text.get(at..at + note.len()).unwrap_or(note).to_owned());
        }
    }
    found
}

impl Rule for DescriptionAboutCode {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for DescriptionAboutCode {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let i = view.index;
        for text in view.texts() {
            let found = notes(text.text);
            if found.is_empty() {
                continue;
            }
            let quoted: Vec<String> = found.iter().map(|n| format!("{n:?}")).collect();
            out.push(Violation {
                tool: Some(i),
                pointer: text.pointer.clone(),
                message: format!(
                    "{} speaks about the code, not the tool: {}",
                    text.what(),
                    quoted.join(", ")
                ),
                help: "keep notes for developers in code comments (`//` in Rust), which do not become descriptions; say what the tool or value is for, and when to call or send it".to_owned(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::notes;

    #[test]
    fn notes_about_code_are_found_and_ordinary_words_are_not() {
        assert_eq!(notes("Gift ideas. TODO: paginate."), ["TODO"]);
        assert_eq!(notes("FIXME"), ["FIXME"]);
        assert_eq!(
            notes("The variants carry no Doc comments so that this enum stays plain."),
            ["Doc comment", "this enum"]
        );
        assert_eq!(notes("Renamed with #[serde(rename)]."), ["#[serde"]);
        for fine in [
            "Adds an item to the user's todo list.",
            "Sign up for the hackathon; see TODOS.md",
            "Phone number, as XXX-XXX-XXXX.",
            "One of the enum values below.",
            "Structured address of the user.",
        ] {
            assert!(notes(fine).is_empty(), "{fine}: {:?}", notes(fine));
        }
    }
}
