//! Tool-name rules per target, and the rewriting that makes a name acceptable to a target.
//!
//! Each rule is a small function over the name's characters and length, with the source of
//! the rule in its documentation. A rule never panics and never allocates on success.

use foldhash::HashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// What is wrong with a name for a given target.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameProblem {
    /// The name is the empty string.
    Empty,
    /// The name has more characters than the target allows.
    TooLong {
        /// Length of the name, in characters.
        len: usize,
        /// The most the target allows.
        max: usize,
    },
    /// A character the target does not allow.
    BadChar {
        /// The character.
        ch: char,
        /// Its position, counted in characters from 0.
        index: usize,
    },
    /// A first character the target does not allow (Gemini wants a letter or `_`).
    BadStart {
        /// The character.
        ch: char,
    },
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameProblem::Empty => write!(f, "the name is empty"),
            NameProblem::TooLong { len, max } => {
                write!(
                    f,
                    "the name has {len} characters, more than the {max} allowed"
                )
            }
            NameProblem::BadChar { ch, index } => {
                write!(
                    f,
                    "character {ch:?} at position {} is not allowed",
                    index + 1
                )
            }
            NameProblem::BadStart { ch } => {
                write!(
                    f,
                    "the name starts with {ch:?}; it must start with a letter or '_'"
                )
            }
        }
    }
}

/// A target's naming rule: allowed characters, allowed first character and maximum length.
#[derive(Debug, Clone, Copy)]
pub struct NameRule {
    /// Short label used in messages, such as `"OpenAI"`.
    pub label: &'static str,
    /// Most characters allowed.
    pub max_len: usize,
    /// The allowed characters, as a human-readable class, for messages.
    pub charset: &'static str,
    allow: fn(char) -> bool,
    allow_first: fn(char) -> bool,
}

fn mcp_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

fn openai_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

fn gemini_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')
}

fn gemini_first(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn any_char(_: char) -> bool {
    true
}

/// MCP (SEP-986, 2025-11-25 and later): 1–128 characters of `A–Z a–z 0–9 _ - .`.
pub const MCP: NameRule = NameRule {
    label: "MCP",
    max_len: 128,
    charset: "[A-Za-z0-9_.-]",
    allow: mcp_char,
    allow_first: any_char,
};

/// OpenAI function names (Chat and Responses): `^[a-zA-Z0-9_-]{1,64}$`.
///
/// Responses allows 128 inside namespaces, but the limit for a top-level function is not
/// documented, so toolpact keeps to 64 (`docs/providers.md#openai-function-names`).
pub const OPENAI: NameRule = NameRule {
    label: "OpenAI",
    max_len: 64,
    charset: "[a-zA-Z0-9_-]",
    allow: openai_char,
    allow_first: any_char,
};

/// Anthropic Messages API today: `^[a-zA-Z0-9_-]{1,128}$`
/// (`docs/providers.md#anthropic-tool-names`).
pub const ANTHROPIC: NameRule = NameRule {
    label: "Anthropic",
    max_len: 128,
    charset: "[a-zA-Z0-9_-]",
    allow: openai_char,
    allow_first: any_char,
};

/// Older Claude clients and Claude Desktop's MCP path: `^[a-zA-Z0-9_-]{1,64}$`.
pub const ANTHROPIC_LEGACY: NameRule = NameRule {
    label: "older Claude clients",
    max_len: 64,
    charset: "[a-zA-Z0-9_-]",
    allow: openai_char,
    allow_first: any_char,
};

/// Gemini function declarations: a letter or `_`, then `[A-Za-z0-9_.:-]`, at most 64
/// characters, as every error of the Gemini API quotes it from 2025-03 to 2026-03
/// (`docs/providers.md#gemini-function-names`; python-genai's docstring says 128 since 2026-05,
/// but no longer name has been seen accepted by the API itself).
pub const GEMINI: NameRule = NameRule {
    label: "Gemini",
    max_len: 64,
    charset: "[A-Za-z0-9_.:-] starting with a letter or '_'",
    allow: gemini_char,
    allow_first: gemini_first,
};

impl NameRule {
    /// Checks `name` against this rule.
    pub fn check(&self, name: &str) -> Result<(), NameProblem> {
        let mut len = 0;
        for (index, ch) in name.chars().enumerate() {
            if index == 0 && !(self.allow_first)(ch) {
                return Err(NameProblem::BadStart { ch });
            }
            if !(self.allow)(ch) {
                return Err(NameProblem::BadChar { ch, index });
            }
            len += 1;
        }
        if len == 0 {
            return Err(NameProblem::Empty);
        }
        if len > self.max_len {
            return Err(NameProblem::TooLong {
                len,
                max: self.max_len,
            });
        }
        Ok(())
    }

    /// Whether `name` satisfies this rule.
    pub fn accepts(&self, name: &str) -> bool {
        self.check(name).is_ok()
    }

    /// A name this rule accepts, derived from `name`, or `None` when `name` is empty.
    ///
    /// Every character the rule rejects becomes `_` (`admin.tools.list` → `admin_tools_list`);
    /// a rejected first character gets a `_` in front of it; a name that is still too long is
    /// cut and ends with `_` and eight hex digits of a hash of the whole original name, so that
    /// two long names that share a prefix stay apart. The result is the same on every run.
    pub fn rewrite(&self, name: &str) -> Option<String> {
        if name.is_empty() {
            return None;
        }
        if self.accepts(name) {
            return Some(name.to_owned());
        }
        let mut out = String::with_capacity(name.len() + 1);
        for (index, ch) in name.chars().enumerate() {
            if index == 0 && !(self.allow_first)(ch) {
                if (self.allow)(ch) && (self.allow_first)('_') {
                    out.push('_');
                    out.push(ch);
                } else {
                    out.push('_');
                }
                continue;
            }
            out.push(if (self.allow)(ch) { ch } else { '_' });
        }
        let chars = out.chars().count();
        if chars > self.max_len {
            let keep = self.max_len.saturating_sub(9);
            let mut cut: String = out.chars().take(keep).collect();
            cut.push('_');
            cut.push_str(&format!("{:08x}", fnv1a(name)));
            out = cut;
        }
        Some(out)
    }
}

/// 32-bit FNV-1a: small, stable across platforms and versions, enough to keep cut names apart.
fn fnv1a(s: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in s.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// The names a target saw, mapped to the tools' original names.
///
/// A call that comes back from the provider carries the exported name; [`NameMap::original`]
/// gives the name of the tool to dispatch to.
///
/// Hash maps both ways, because a provider call is looked up on every dispatch, a catalog of
/// 100,000 tools is looked up once per tool, and a request names tools by their original
/// names; foldhash, as the registry uses, for the same reason (short keys, seeded per
/// process). Everything that lists the names sorts them, so output stays deterministic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameMap {
    exported_to_original: HashMap<String, String>,
    original_to_exported: HashMap<String, String>,
}

impl Serialize for NameMap {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let sorted: BTreeMap<&str, &str> = self
            .exported_to_original
            .iter()
            .map(|(e, o)| (e.as_str(), o.as_str()))
            .collect();
        serializer.collect_map(sorted)
    }
}

impl NameMap {
    /// The original name of the tool exported as `exported`.
    pub fn original<'a>(&'a self, exported: &'a str) -> Option<&'a str> {
        self.exported_to_original.get(exported).map(String::as_str)
    }

    /// The name under which the tool `original` was exported.
    pub fn exported(&self, original: &str) -> Option<&str> {
        self.original_to_exported.get(original).map(String::as_str)
    }

    /// Records that the tool `original` was exported as `exported`. Exported names are unique
    /// (export refuses a collision), and so are originals.
    pub(crate) fn insert(&mut self, exported: String, original: String) {
        self.original_to_exported
            .insert(original.clone(), exported.clone());
        self.exported_to_original.insert(exported, original);
    }

    /// Makes room for `more` names.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.original_to_exported.reserve(more);
        self.exported_to_original.reserve(more);
    }

    /// Pairs `(exported, original)` where the two differ, sorted by exported name.
    pub fn renamed(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut pairs: Vec<(&str, &str)> = self
            .exported_to_original
            .iter()
            .filter(|(e, o)| e != o)
            .map(|(e, o)| (e.as_str(), o.as_str()))
            .collect();
        pairs.sort_unstable();
        pairs.into_iter()
    }

    /// How many tools were exported.
    pub fn len(&self) -> usize {
        self.exported_to_original.len()
    }

    /// Whether no tool was exported.
    pub fn is_empty(&self) -> bool {
        self.exported_to_original.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_accepts_dots_openai_does_not() {
        assert!(MCP.accepts("admin.tools.list"));
        assert_eq!(
            OPENAI.check("admin.tools.list"),
            Err(NameProblem::BadChar { ch: '.', index: 5 })
        );
        assert_eq!(
            OPENAI.rewrite("admin.tools.list").as_deref(),
            Some("admin_tools_list")
        );
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        let n64 = "a".repeat(64);
        let n65 = "a".repeat(65);
        assert!(OPENAI.accepts(&n64));
        assert_eq!(
            OPENAI.check(&n65),
            Err(NameProblem::TooLong { len: 65, max: 64 })
        );
        assert!(ANTHROPIC.accepts(&n65));
        assert!(!ANTHROPIC_LEGACY.accepts(&n65));
        assert_eq!(MCP.check(""), Err(NameProblem::Empty));
    }

    #[test]
    fn gemini_needs_letter_or_underscore_first() {
        assert!(GEMINI.accepts("ns:get.weather-v2"));
        assert_eq!(GEMINI.check("2fa"), Err(NameProblem::BadStart { ch: '2' }));
        assert_eq!(GEMINI.rewrite("2fa").as_deref(), Some("_2fa"));
        assert_eq!(GEMINI.rewrite("-x").as_deref(), Some("_-x"));
    }

    #[test]
    fn gemini_names_stop_at_64() {
        let n64 = "a".repeat(64);
        let n65 = "a".repeat(65);
        assert!(GEMINI.accepts(&n64));
        assert_eq!(
            GEMINI.check(&n65),
            Err(NameProblem::TooLong { len: 65, max: 64 })
        );
        let cut = GEMINI.rewrite(&n65).unwrap_or_default();
        assert_eq!(cut.chars().count(), 64);
        assert!(GEMINI.accepts(&cut));
    }

    #[test]
    fn long_names_are_cut_with_a_stable_distinct_suffix() {
        let a = format!("{}_alpha", "x".repeat(70));
        let b = format!("{}_beta", "x".repeat(70));
        let ra = OPENAI.rewrite(&a).unwrap_or_default();
        let rb = OPENAI.rewrite(&b).unwrap_or_default();
        assert_eq!(ra.chars().count(), 64);
        assert!(OPENAI.accepts(&ra) && OPENAI.accepts(&rb));
        assert_ne!(ra, rb);
        assert_eq!(OPENAI.rewrite(&a).unwrap_or_default(), ra);
    }

    #[test]
    fn non_ascii_is_replaced() {
        assert_eq!(MCP.rewrite("météo").as_deref(), Some("m_t_o"));
        assert_eq!(MCP.rewrite(""), None);
    }
}
