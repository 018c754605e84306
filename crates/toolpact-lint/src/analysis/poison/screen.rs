//! The literal screen in front of the phrase patterns: for each pattern list, a set of words
//! of which every match of the list holds at least one, read from the patterns themselves.
//! One pass of a literal automaton over a text says which lists can match it at all; the
//! others are not searched. Most texts match no list: they never reach the regular expressions
//! (which are compiled only when some text needs them), so their search caches stay small.
//!
//! The words are *necessary*, not sufficient: a list the screen lets through is searched in
//! full, so what the patterns find is what they found without the screen.
//!
//! A space of a pattern matches any run of spaces, underscores and newlines: the screen reads
//! words and text with every such run as one space, so that its words run across spaces
//! ("call this tool") and are rarer than single words. An ASCII word boundary (`(?-u:\b)`)
//! at the edge of a word next to a letter or a digit is kept with the word and checked where
//! the word is found, so that `add` is not found in `adds`.

use aho_corasick::{AhoCorasick, MatchKind};
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use std::collections::BTreeSet;

/// The most strings a set of possible matches holds before it is given up.
const MAX_SET: usize = 256;

/// A set of strings of which every match of a pattern is one (`exact`), or of which every
/// match holds one (`factor`): `None` where no small set says so.
#[derive(Debug, Clone, Default)]
struct Literals {
    /// Every match of the node is one of these.
    exact: Option<BTreeSet<Vec<u8>>>,
    /// Every match of the node holds one of these; never the empty string.
    factor: Option<BTreeSet<Vec<u8>>>,
}

/// How rare a factor is likely to be: its shortest word, then the fewer words the better.
fn rank(set: &BTreeSet<Vec<u8>>) -> (usize, usize) {
    let shortest = set.iter().map(Vec::len).min().unwrap_or(0);
    (shortest, usize::MAX - set.len())
}

/// The rarer of two factors.
fn better(a: Option<BTreeSet<Vec<u8>>>, b: Option<BTreeSet<Vec<u8>>>) -> Option<BTreeSet<Vec<u8>>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if rank(&b) > rank(&a) { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// A set of strings as a factor, when none of them is empty (a boundary alone is empty).
fn as_factor(set: &BTreeSet<Vec<u8>>) -> Option<BTreeSet<Vec<u8>>> {
    (!set.is_empty() && set.iter().all(|s| s.iter().any(|&b| b != BOUNDARY))).then(|| set.clone())
}

/// An ASCII word boundary in a string of the sets below (no pattern holds this byte).
const BOUNDARY: u8 = 0x01;

/// Whether a byte is one of a blank run as the screen reads it.
fn is_gap(b: u8) -> bool {
    matches!(b, b' ' | b'_' | b'\n')
}

/// `bytes` with every run of spaces, underscores and newlines as one space (appended to `out`).
fn squeeze_into(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        if is_gap(b) {
            if out.iter().rev().find(|&&c| c != BOUNDARY) != Some(&b' ') {
                out.push(b' ');
            }
        } else {
            out.push(b);
        }
    }
}

/// `bytes` as the screen reads them (see [`squeeze_into`]).
fn squeezed(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    squeeze_into(bytes, &mut out);
    out
}

/// Every string of `a` followed by every string of `b`, unless there are too many.
fn product(a: &BTreeSet<Vec<u8>>, b: &BTreeSet<Vec<u8>>) -> Option<BTreeSet<Vec<u8>>> {
    if a.len() * b.len() > MAX_SET {
        return None;
    }
    Some(
        a.iter()
            .flat_map(|x| b.iter().map(move |y| squeezed(&[x.as_slice(), y].concat())))
            .collect(),
    )
}

/// The literals of one node of a pattern.
fn literals(hir: &Hir) -> Literals {
    match hir.kind() {
        HirKind::Look(Look::WordAscii) => Literals {
            exact: Some(BTreeSet::from([vec![BOUNDARY]])),
            factor: None,
        },
        // A look-around matches the empty string (when it matches at all).
        HirKind::Empty | HirKind::Look(_) => Literals {
            exact: Some(BTreeSet::from([Vec::new()])),
            factor: None,
        },
        HirKind::Literal(l) => {
            let set = BTreeSet::from([squeezed(&l.0)]);
            Literals {
                factor: as_factor(&set),
                exact: Some(set),
            }
        }
        HirKind::Class(class) => {
            let exact = class_strings(class);
            Literals {
                factor: exact.as_ref().and_then(as_factor),
                exact,
            }
        }
        HirKind::Capture(c) => literals(&c.sub),
        HirKind::Repetition(r) => {
            let sub = literals(&r.sub);
            match (r.min, r.max) {
                (1, Some(1)) => sub,
                (0, Some(1)) => Literals {
                    exact: sub.exact.map(|mut e| {
                        e.insert(Vec::new());
                        e
                    }),
                    factor: None,
                },
                // A run of blanks reads as one space, however long.
                (_, None)
                    if sub
                        .exact
                        .as_ref()
                        .is_some_and(|e| e.len() == 1 && e.contains(&b" "[..])) =>
                {
                    let space = BTreeSet::from([b" ".to_vec()]);
                    if r.min == 0 {
                        Literals {
                            exact: Some(BTreeSet::from([Vec::new(), b" ".to_vec()])),
                            factor: None,
                        }
                    } else {
                        Literals {
                            factor: as_factor(&space),
                            exact: Some(space),
                        }
                    }
                }
                (0, _) => Literals::default(),
                _ => Literals {
                    factor: better(sub.factor, sub.exact.as_ref().and_then(as_factor)),
                    exact: None,
                },
            }
        }
        HirKind::Concat(children) => {
            let mut factor = None;
            // The strings of the run of children with exact sets so far.
            let mut run: Option<BTreeSet<Vec<u8>>> = Some(BTreeSet::from([Vec::new()]));
            let mut all_exact = true;
            for child in children {
                let lit = literals(child);
                factor = better(factor, lit.factor);
                match (&run, &lit.exact) {
                    (Some(r), Some(e)) => match product(r, e) {
                        Some(p) => run = Some(p),
                        None => {
                            factor = better(factor, as_factor(r));
                            run = Some(e.clone());
                            all_exact = false;
                        }
                    },
                    (Some(r), None) => {
                        factor = better(factor, as_factor(r));
                        run = Some(BTreeSet::from([Vec::new()]));
                        all_exact = false;
                    }
                    (None, _) => unreachable!("a run always holds the empty string at least"),
                }
            }
            let run = run.unwrap_or_default();
            factor = better(factor, as_factor(&run));
            Literals {
                exact: all_exact.then_some(run),
                factor,
            }
        }
        HirKind::Alternation(children) => {
            let mut exact = Some(BTreeSet::new());
            let mut factor = Some(BTreeSet::new());
            for child in children {
                let lit = literals(child);
                let child_factor = better(lit.factor, lit.exact.as_ref().and_then(as_factor));
                exact = match (exact, lit.exact) {
                    (Some(mut a), Some(b)) if a.len() + b.len() <= MAX_SET => {
                        a.extend(b);
                        Some(a)
                    }
                    _ => None,
                };
                factor = match (factor, child_factor) {
                    (Some(mut a), Some(b)) => {
                        a.extend(b);
                        Some(a)
                    }
                    _ => None,
                };
            }
            Literals { exact, factor }
        }
    }
}

/// The strings a small class matches, one character each.
fn class_strings(class: &Class) -> Option<BTreeSet<Vec<u8>>> {
    let mut out = BTreeSet::new();
    match class {
        Class::Unicode(c) => {
            for r in c.ranges() {
                for ch in r.start()..=r.end() {
                    out.insert(squeezed(ch.to_string().as_bytes()));
                    if out.len() > 4 {
                        return None;
                    }
                }
            }
        }
        Class::Bytes(c) => {
            for r in c.ranges() {
                for b in r.start()..=r.end() {
                    out.insert(squeezed(&[b]));
                    if out.len() > 4 {
                        return None;
                    }
                }
            }
        }
    }
    Some(out)
}

/// The words of which every match of `pattern` holds one, or `None` when some match may hold
/// none of a small set of words (the pattern is then always searched).
pub(crate) fn necessary_words(pattern: &str) -> Option<BTreeSet<Vec<u8>>> {
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .unwrap_or_else(|e| unreachable!("a pattern does not parse: {e}"));
    let lit = literals(&hir);
    better(lit.factor, lit.exact.as_ref().and_then(as_factor))
}

/// A bit for each pattern list a text may match.
pub(crate) type Lists = u32;

/// One way a word of the screen is necessary: to which lists, and whether a word boundary
/// must hold at its start and at its end.
#[derive(Debug, Clone, Copy)]
struct Use {
    lists: Lists,
    boundary_before: bool,
    boundary_after: bool,
}

/// One literal automaton for the necessary words of several pattern lists.
pub(crate) struct Screen {
    /// The words of every list, without their boundaries.
    words: AhoCorasick,
    /// How each word is necessary.
    uses: Vec<Vec<Use>>,
    /// The lists without necessary words: always searched.
    always: Lists,
    /// Every list.
    all: Lists,
}

impl Screen {
    /// The screen of the pattern lists `patterns` (list `i` gets the bit `1 << i`).
    pub(crate) fn new(patterns: &[&str]) -> Screen {
        let mut words: Vec<Vec<u8>> = Vec::new();
        let mut uses: Vec<Vec<Use>> = Vec::new();
        let mut always = 0;
        for (i, pattern) in patterns.iter().enumerate() {
            let bit = 1 << i;
            let Some(set) = necessary_words(pattern) else {
                always |= bit;
                continue;
            };
            for raw in set {
                let word: Vec<u8> = raw.iter().copied().filter(|&b| b != BOUNDARY).collect();
                // A boundary is checked next to a letter or a digit only: next to a blank,
                // the screen's text has lost what the pattern's text had there.
                let use_ = Use {
                    lists: bit,
                    boundary_before: raw.first() == Some(&BOUNDARY)
                        && word.first().is_some_and(u8::is_ascii_alphanumeric),
                    boundary_after: raw.last() == Some(&BOUNDARY)
                        && word.last().is_some_and(u8::is_ascii_alphanumeric),
                };
                match words.iter().position(|w| *w == word) {
                    Some(at) => uses[at].push(use_),
                    None => {
                        words.push(word);
                        uses.push(vec![use_]);
                    }
                }
            }
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&words)
            .unwrap_or_else(|e| unreachable!("the screen's words do not compile: {e}"));
        Screen {
            words: automaton,
            uses,
            always,
            all: (1 << patterns.len()) - 1,
        }
    }

    /// The lists that may match `text`: those whose necessary words it holds, and those
    /// without necessary words.
    pub(crate) fn lists(&self, text: &str) -> Lists {
        let mut lists = self.always;
        let buffer: Vec<u8>;
        let bytes = text.as_bytes();
        let text = if bytes.iter().any(|&b| b == b'_' || b == b'\n')
            || bytes.windows(2).any(|w| w == b"  ")
        {
            buffer = squeezed(bytes);
            &buffer[..]
        } else {
            bytes
        };
        // Next to a letter or a digit, an ASCII boundary is a byte that is none.
        let outside = |i: Option<usize>| {
            i.and_then(|i| text.get(i))
                .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'_')
        };
        for m in self.words.find_overlapping_iter(text) {
            let before = outside(m.start().checked_sub(1));
            let after = outside(Some(m.end()));
            for u in &self.uses[m.pattern().as_usize()] {
                if (before || !u.boundary_before) && (after || !u.boundary_after) {
                    lists |= u.lists;
                }
            }
            if lists == self.all {
                break;
            }
        }
        lists
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of `pattern`, a boundary written `|`.
    fn words(pattern: &str) -> Option<Vec<String>> {
        necessary_words(pattern).map(|s| {
            s.into_iter()
                .map(|w| {
                    String::from_utf8(w)
                        .unwrap_or_default()
                        .replace('\u{1}', "|")
                })
                .collect()
        })
    }

    #[test]
    fn finds_the_rarest_words_every_match_needs() {
        let whole = words(r"(?-u:\b)(always|only) (call|use) this (one|tool) instead(?-u:\b)");
        assert_eq!(whole.as_ref().map(Vec::len), Some(8));
        assert!(
            whole
                .as_ref()
                .is_some_and(|w| w.contains(&"|only use this one instead|".to_owned()))
        );
        // A run of blanks reads as one space.
        assert_eq!(
            words(
                r"(?-u:\b)(always|only)[\n _]+(call|use)[\n _]+this[\n _]+(one|tool)[\n _]+instead(?-u:\b)"
            ),
            whole
        );
        assert_eq!(
            words(r"(?:a|b)x+(?:the|an)?[a-z]{0,4}tool|dog"),
            Some(vec!["dog".to_owned(), "tool".to_owned()])
        );
        // A branch that may match anything leaves the pattern without necessary words.
        assert_eq!(words(r"tool|[a-z]+"), None);
        assert_eq!(words(r"(the )?user"), Some(vec!["user".to_owned()]));
    }

    #[test]
    fn lets_through_only_the_lists_whose_words_occur() {
        let screen = Screen::new(&[
            r"(?-u:\b)call (this|me)(?-u:\b)",
            r"secret|password",
            r"\w+",
        ]);
        assert_eq!(screen.lists("nothing here"), 0b100);
        assert_eq!(screen.lists("always call me"), 0b101);
        assert_eq!(screen.lists("the password"), 0b110);
        // A word boundary of the pattern is one of the screen's words.
        assert_eq!(screen.lists("recall mention"), 0b100);
        assert_eq!(screen.lists("call_me"), 0b101);
    }
}
