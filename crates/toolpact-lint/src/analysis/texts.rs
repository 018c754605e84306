//! The texts of a tool the model reads, each with its JSON pointer: the tool's title and
//! description, its annotations' title, and every description and title at any depth of its
//! input and output schemas.

use crate::analysis::phrases::{Word, words};
use crate::analysis::schema::{Flow, tool_schemas, walk_members};
use crate::engine::timings::{Shared, shared};
use std::cell::OnceCell;
use std::ops::Deref;
use toolpact::Tool;

/// One text the model reads, with its JSON pointer in the tool.
#[derive(Debug, Clone)]
pub(crate) struct Text<'t> {
    /// Where it is: `/description`, `/inputSchema/properties/city/description`, …
    pub pointer: String,
    /// The text.
    pub text: &'t str,
}

impl Text<'_> {
    /// "the tool's description", "a title in the schema", …, for messages.
    pub(crate) fn what(&self) -> &'static str {
        let is_tool_level =
            !self.pointer.starts_with("/inputSchema") && !self.pointer.starts_with("/outputSchema");
        match (self.pointer.ends_with("/title"), is_tool_level) {
            (true, true) => "the tool's title",
            (true, false) => "a title in the schema",
            (false, true) => "the tool's description",
            (false, false) => "a description in the schema",
        }
    }
}

/// A text of a tool, with its words split when a rule first asks for them.
#[derive(Debug)]
pub(crate) struct ReadText<'t> {
    text: Text<'t>,
    words: OnceCell<Vec<Word>>,
}

impl<'t> ReadText<'t> {
    pub(crate) fn new(text: Text<'t>) -> Self {
        ReadText {
            text,
            words: OnceCell::new(),
        }
    }

    /// The text's words and sentences (see [`words`]).
    pub(crate) fn words(&self) -> &[Word] {
        self.words
            .get_or_init(|| shared(Shared::Texts, || words(self.text.text)))
    }
}

impl<'t> Deref for ReadText<'t> {
    type Target = Text<'t>;

    fn deref(&self) -> &Text<'t> {
        &self.text
    }
}

/// Schema keywords whose values are data, not schemas: their strings are not descriptions.
const DATA_KEYWORDS: &[&str] = &["enum", "const", "default", "examples", "example"];

/// Every description and title of the tool: its own, its annotations' title, and those at
/// any depth of its input and output schemas, in document order.
///
/// The schemas are read member by member rather than subschema by subschema: a description
/// under an extension keyword (`x-…`) reaches the model as surely as one in `properties`, and
/// an attacker would hide it exactly there. Only the texts found cost an allocation.
pub(crate) fn tool_texts(tool: &Tool) -> Vec<Text<'_>> {
    let mut out = Vec::new();
    if let Some(title) = &tool.title {
        out.push(Text {
            pointer: "/title".to_owned(),
            text: title,
        });
    }
    if let Some(description) = &tool.description {
        out.push(Text {
            pointer: "/description".to_owned(),
            text: description,
        });
    }
    if let Some(title) = tool.annotations.as_ref().and_then(|a| a.title.as_ref()) {
        out.push(Text {
            pointer: "/annotations/title".to_owned(),
            text: title,
        });
    }
    for (schema, base) in tool_schemas(tool) {
        walk_members(schema, base, &mut |member| {
            let Some(key) = member.key else {
                return Flow::Descend;
            };
            if let Some(text) = member.value.as_str()
                && (key == "description" || key == "title")
            {
                out.push(Text {
                    pointer: member.pointer.to_owned(),
                    text,
                });
                return Flow::Skip;
            }
            if DATA_KEYWORDS.contains(&key) {
                Flow::Skip
            } else {
                Flow::Descend
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_every_text_but_data() {
        let tool: Tool = serde_json::from_value(json!({
            "name": "t",
            "title": "T",
            "description": "D",
            "inputSchema": {
                "properties": {"a/b": {"description": "A", "default": {"description": "data"}}},
                "x-note": {"title": "hidden"},
                "anyOf": [{"description": "branch"}]
            },
            "outputSchema": {"description": "out"}
        }))
        .unwrap();
        let found: Vec<(String, &str)> = tool_texts(&tool)
            .into_iter()
            .map(|t| (t.pointer, t.text))
            .collect();
        assert_eq!(
            found,
            [
                ("/title".to_owned(), "T"),
                ("/description".to_owned(), "D"),
                ("/inputSchema/properties/a~1b/description".to_owned(), "A"),
                ("/inputSchema/x-note/title".to_owned(), "hidden"),
                ("/inputSchema/anyOf/0/description".to_owned(), "branch"),
                ("/outputSchema/description".to_owned(), "out"),
            ]
        );
    }
}
