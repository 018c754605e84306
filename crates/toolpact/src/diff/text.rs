//! The word diff of a text that changed (a title, a description), and its rendering on one
//! line.

use serde::Serialize;
use similar::{Algorithm, ChangeTag};

/// A text that changed, with its word diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextChange {
    /// The old text, or `None` when there was none.
    pub old: Option<String>,
    /// The new text, or `None` when there is none.
    pub new: Option<String>,
    /// The word diff: runs of equal, deleted and inserted text, which put together give the
    /// old text (equal and deleted runs) and the new text (equal and inserted runs).
    pub words: Vec<WordChange>,
}

/// One run of a word diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WordChange {
    /// Whether the run is in both texts, only the old, or only the new.
    pub op: WordOp,
    /// The run, with the whitespace inside it.
    pub text: String,
}

/// The operation of a word-diff run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum WordOp {
    /// In both texts.
    Equal,
    /// Only in the old text.
    Delete,
    /// Only in the new text.
    Insert,
}

/// Texts longer than this many words (either side) are shown as replaced whole, so that a
/// hostile megabyte of description cannot make the word diff quadratic.
const MAX_DIFF_WORDS: usize = 2000;

/// Words of unchanged text kept around each change when a word diff is rendered.
const CONTEXT_WORDS: usize = 5;

impl TextChange {
    /// The word diff of two texts.
    pub fn new(old: Option<&str>, new: Option<&str>) -> TextChange {
        let (a, b) = (old.unwrap_or(""), new.unwrap_or(""));
        let mut words: Vec<WordChange> = Vec::new();
        let mut push = |op: WordOp, text: &str| {
            if text.is_empty() {
                return;
            }
            match words.last_mut() {
                Some(last) if last.op == op => last.text.push_str(text),
                _ => words.push(WordChange {
                    op,
                    text: text.to_owned(),
                }),
            }
        };
        let too_long = |s: &str| s.split_whitespace().nth(MAX_DIFF_WORDS).is_some();
        if too_long(a) || too_long(b) {
            push(WordOp::Delete, a);
            push(WordOp::Insert, b);
        } else {
            for (tag, run) in similar::utils::diff_words(Algorithm::Myers, a, b) {
                let op = match tag {
                    ChangeTag::Equal => WordOp::Equal,
                    ChangeTag::Delete => WordOp::Delete,
                    ChangeTag::Insert => WordOp::Insert,
                };
                push(op, run);
            }
        }
        TextChange {
            old: old.map(str::to_owned),
            new: new.map(str::to_owned),
            words,
        }
    }

    /// The word diff on one line, as `git diff --word-diff` writes it: `[-deleted-]{+inserted+}`,
    /// unchanged text shortened to a few words around each change, line breaks shown as `\n`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let last = self.words.len().saturating_sub(1);
        for (i, run) in self.words.iter().enumerate() {
            match run.op {
                WordOp::Delete => {
                    out.push_str("[-");
                    out.push_str(&run.text);
                    out.push_str("-]");
                }
                WordOp::Insert => {
                    out.push_str("{+");
                    out.push_str(&run.text);
                    out.push_str("+}");
                }
                WordOp::Equal => out.push_str(&shorten(&run.text, i == 0, i == last)),
            }
        }
        out.replace("\r\n", "\\n").replace('\n', "\\n")
    }
}

/// Unchanged text around changes, cut to [`CONTEXT_WORDS`] words on each side that touches one.
fn shorten(text: &str, first: bool, last: bool) -> String {
    let words: Vec<(usize, usize)> = word_spans(text);
    let n = CONTEXT_WORDS;
    match (first, last) {
        (true, true) => text.to_owned(),
        (true, false) if words.len() > n => format!("… {}", &text[words[words.len() - n].0..]),
        (false, true) if words.len() > n => format!("{} …", &text[..words[n - 1].1]),
        (false, false) if words.len() > 2 * n => format!(
            "{} … {}",
            &text[..words[n - 1].1],
            &text[words[words.len() - n].0..]
        ),
        _ => text.to_owned(),
    }
}

/// Byte ranges of the words (runs of non-whitespace) of a text.
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_diffs_keep_context_short() {
        let text = TextChange::new(
            Some("one two three four five six seven eight nine ten eleven twelve"),
            Some("one two three four five six seven EIGHT nine ten eleven twelve"),
        );
        assert_eq!(
            text.render(),
            "… three four five six seven [-eight-]{+EIGHT+} nine ten eleven twelve"
        );
        let added = TextChange::new(None, Some("New text"));
        assert_eq!(added.render(), "{+New text+}");
    }

    #[test]
    fn huge_texts_are_replaced_whole() {
        let old = "word ".repeat(MAX_DIFF_WORDS + 1);
        let new = format!("{old}more");
        let text = TextChange::new(Some(&old), Some(&new));
        assert_eq!(text.words.len(), 2);
    }
}
