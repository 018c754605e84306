//! Characters a person reviewing a tool cannot see but the model reads: zero-width
//! characters, bidirectional controls, Unicode tag characters and ANSI escapes. The rule that
//! reports them and the text report, which shows them escaped in snippets, ask the same
//! question here.

/// What kind of hidden character `c` is, if any.
pub(crate) fn hidden_kind(c: char) -> Option<&'static str> {
    match c {
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}' => {
            Some("zero-width")
        }
        '\u{200E}'
        | '\u{200F}'
        | '\u{061C}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => Some("bidirectional control"),
        '\u{E0000}'..='\u{E007F}' => Some("tag"),
        '\u{1B}' => Some("ANSI escape"),
        _ => None,
    }
}
