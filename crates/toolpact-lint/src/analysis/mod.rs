//! What rules read of tools, shared so that no rule imports another: words and phrases,
//! the texts of a tool the model reads, the catalog's names, walks over schemas and what one
//! schema says, what a description says of the quality components, verbs and hints, identifiers, paraphrases, hidden characters, tool poisoning, the literal screen in front of phrase patterns, token counts, and how
//! messages write numbers and lists.

pub(crate) mod hidden;
pub(crate) mod hints;
pub(crate) mod ids;
pub(crate) mod memo;
pub(crate) mod message;
pub(crate) mod names;
pub(crate) mod paraphrase;
pub(crate) mod phrases;
pub(crate) mod poison;
pub(crate) mod quality;
pub(crate) mod schema;
pub(crate) mod screen;
pub(crate) mod texts;
pub(crate) mod tokens;
pub(crate) mod verbs;
pub(crate) mod words;
