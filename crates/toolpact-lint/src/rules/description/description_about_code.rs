use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

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
    /// - The definition is the prompt: the model reads nothing else
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

/// For each byte, the markers and notes that can start with it: bit `k` stands for
/// `MARKERS[k]`, bit `MARKERS.len() + k` for `CODE_NOTES[k]` in either case.
const STARTS: [u16; 256] = {
    assert!(MARKERS.len() + CODE_NOTES.len() <= 16);
    let mut starts = [0; 256];
    let mut k = 0;
    while k < MARKERS.len() {
        starts[MARKERS[k].as_bytes()[0] as usize] |= 1 << k;
        k += 1;
    }
    let mut k = 0;
    while k < CODE_NOTES.len() {
        let first = CODE_NOTES[k].as_bytes()[0];
        let bit = 1 << (MARKERS.len() + k);
        starts[first.to_ascii_lowercase() as usize] |= bit;
        starts[first.to_ascii_uppercase() as usize] |= bit;
        k += 1;
    }
    starts
};

/// What in `text` speaks about the code, as written there: the markers that stand as whole
/// words, in the order of [`MARKERS`], then the first occurrence of each note, in the order of
/// [`CODE_NOTES`].
///
/// The text is read once, byte by byte: every marker and note is ASCII, and most bytes of a
/// text start none of them ([`STARTS`]). Notes are compared ignoring ASCII case, which keeps
/// byte offsets, so a note is quoted as written.
fn notes(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    // The markers and notes found (bits as in `STARTS`), and where each note was.
    let mut found = 0u16;
    let mut note_at = [0; CODE_NOTES.len()];
    for (at, &byte) in bytes.iter().enumerate() {
        let mut candidates = STARTS[usize::from(byte)] & !found;
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let rest = &bytes[at..];
            if let Some(marker) = MARKERS.get(k) {
                // No marker overlaps itself (as `TOTO` would), so every occurrence is one a
                // search from the end of the last one would meet.
                if rest.starts_with(marker.as_bytes()) && whole_word(text, at, at + marker.len()) {
                    found |= 1 << k;
                }
            } else if let Some(note) = CODE_NOTES.get(k - MARKERS.len())
                // Most candidates fail at the second byte ("the", "set"): a cheap test first.
                && rest.get(1).map(u8::to_ascii_lowercase) == note.as_bytes().get(1).copied()
                && rest
                    .get(..note.len())
                    .is_some_and(|r| r.eq_ignore_ascii_case(note.as_bytes()))
            {
                note_at[k - MARKERS.len()] = at;
                found |= 1 << k;
            }
        }
    }
    let mut quoted = Vec::new();
    for (k, marker) in MARKERS.iter().enumerate() {
        if found & (1 << k) != 0 {
            quoted.push((*marker).to_owned());
        }
    }
    for (k, (note, at)) in CODE_NOTES.iter().zip(note_at).enumerate() {
        if found & (1 << (MARKERS.len() + k)) != 0 {
            quoted.push(text.get(at..at + note.len()).unwrap_or(note).to_owned());
        }
    }
    quoted
}

/// Whether `text[start..end]` stands as a word of its own: no letter, digit or `_` touches it.
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    !word(text[..start].chars().next_back()) && !word(text[end..].chars().next())
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
                help: "keep notes for developers in code comments (`//` in Rust), which do not become descriptions; say what the tool or value is for, and when to call or send it".into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CODE_NOTES, MARKERS, notes};

    /// [`notes`] the plain way, one search for each marker and note: the reference for the
    /// single pass.
    fn notes_reference(text: &str) -> Vec<String> {
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
        let lower = text.to_ascii_lowercase();
        for note in CODE_NOTES {
            if let Some(at) = lower.find(note) {
                found.push(text.get(at..at + note.len()).unwrap_or(note).to_owned());
            }
        }
        found
    }

    #[test]
    fn no_marker_overlaps_itself() {
        for marker in MARKERS {
            for k in 1..marker.len() {
                assert_ne!(marker[..k], marker[marker.len() - k..], "{marker}");
            }
        }
    }

    #[test]
    fn one_pass_finds_what_one_search_per_note_found() {
        for text in crate::analysis::phrases::tests::TRICKY
            .iter()
            .copied()
            .chain([
                "",
                "TODO",
                "TODOTODO TODO",
                "xTODO, then FIXME_ HACK",
                "HACKs and HACK.",
                "İTODO TODOİ éTODO TODO’",
                "THIS ENUM and this enum, then This Enum; DOC COMMENT doc comment",
                "#[SERDE #[serde #[derive(Debug)] #[schemars(x)]",
                "Serde Attribute, schemars attribute, this struct.",
                "this  enum, this\tstruct, doc-comment",
                "thİs enum, ſerde attribute, this enum",
            ])
        {
            assert_eq!(notes(text), notes_reference(text), "{text:?}");
        }
    }

    proptest::proptest! {
        /// Any text yields the same notes, in the same order and case.
        #[test]
        fn one_pass_agrees_on_random_text(
            text in r#"(TODO|FIXME|HACK|[Tt]odo|[Tt][Hh][Ii][Ss] ([Ee]num|[Ss]truct)|[Dd]oc [Cc]omment|#\[(serde|SERDE|derive|schemars)|(serde|schemars) attribute|[a-zA-Z0-9_]{1,4}|[ .:#\[(]{1,2}|é|İ|_){0,12}"#,
        ) {
            proptest::prop_assert_eq!(notes(&text), notes_reference(&text));
        }
    }

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
