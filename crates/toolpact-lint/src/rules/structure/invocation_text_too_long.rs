use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Checks the ChatGPT Apps status texts `_meta["openai/toolInvocation/invoking"]` (shown
    /// while the tool runs) and `_meta["openai/toolInvocation/invoked"]` (shown when it is
    /// done) against the 64-character limit of the Apps SDK.
    ///
    /// ## Why is this bad?
    /// These texts are one-line status labels in the ChatGPT interface. The Apps SDK allows
    /// at most 64 characters; longer text is cut off or refused, and a sentence that explains
    /// the tool belongs in its description, where the model reads it.
    ///
    /// ## Example
    /// ```json
    /// {"_meta": {"openai/toolInvocation/invoking": "Searching our whole catalog of gifts for something your friend will love…"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"_meta": {"openai/toolInvocation/invoking": "Finding gift ideas…", "openai/toolInvocation/invoked": "Found gift ideas"}}
    /// ```
    ///
    /// ## References
    /// - OpenAI Apps SDK reference, tool descriptor `_meta` ("≤ 64 characters";
    ///   `docs/providers.md#chatgpt-apps-metadata`)
    pub struct InvocationTextTooLong {
        code: "TP011",
        name: "invocation-text-too-long",
        category: Structure,
        severity: Warning,
        options: [RuleOption {
            name: "max",
            default: CHATGPT_MAX,
            doc: "the most characters a status text may have",
        }],
    }
}

/// The Apps SDK's limit on both status texts.
const CHATGPT_MAX: u64 = 64;

const KEYS: [(&str, &str); 2] = [
    ("openai/toolInvocation/invoking", "while the tool runs"),
    ("openai/toolInvocation/invoked", "when the tool is done"),
];

/// The text cut at a word boundary so that it and a closing `…` fit in `max` characters.
fn shorten(text: &str, max: usize) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        let extra = usize::from(!out.is_empty()) + word.chars().count();
        if out.chars().count() + extra + 1 > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    let out = out.trim_end_matches(|c: char| c.is_ascii_punctuation() || c == '…');
    if out.is_empty() {
        text.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    } else {
        format!("{out}…")
    }
}

impl Rule for InvocationTextTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for InvocationTextTooLong {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let configured = cx.option(&Self::META, "max");
        let max = usize::try_from(configured).unwrap_or(usize::MAX);
        let limit = if configured == CHATGPT_MAX {
            format!("ChatGPT takes at most {max}")
        } else {
            format!("the configured maximum is {max}")
        };
        let Some(meta) = &tool.meta else { return };
        for (key, when) in KEYS {
            let Some(Value::String(text)) = meta.get(key) else {
                continue;
            };
            let chars = text.chars().count();
            if chars <= max {
                continue;
            }
            out.push(Violation {
                tool: Some(i),
                pointer: child_pointer("/_meta", key),
                message: format!(
                    "the status text shown {when} has {chars} characters; {limit}"
                ),
                help: format!(
                    "shorten it to a status label of at most {max} characters, such as {:?}; what the tool does belongs in its description",
                    shorten(text, max)
                ).into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn shortens_at_a_word_boundary() {
        let long = "Searching our whole catalog of gifts for something your friend will love…";
        let short = shorten(long, 64);
        assert_eq!(
            short,
            "Searching our whole catalog of gifts for something your friend…"
        );
        assert!(short.chars().count() <= 64);
        assert_eq!(shorten("Supercalifragilistic", 8), "Superca…");
    }
}
