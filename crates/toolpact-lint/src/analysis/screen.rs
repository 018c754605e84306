//! The literal screen in front of the phrase patterns: for each pattern of each list, the
//! words its matches need, read from the pattern itself. A pattern is read as its ways
//! through (the branches of its alternations, kept apart up to a bound), and each way as up
//! to three sets of words of which every match taking it holds one *each*: "user … already
//! … approved" needs a word of each of its three parts, not only "user". One pass of a
//! literal automaton over a text says which patterns of which lists can match it at all; a
//! list is searched as the alternation of those patterns only (`patterns::List`). Most texts
//! let no pattern through: they never reach the regular expressions (which are compiled only
//! when some text needs them), and those that do reach an automaton of one to a few patterns
//! rather than of the whole list, which searches many times faster.
//!
//! The words are *necessary*, not sufficient: a pattern the screen lets through is searched,
//! and a pattern it leaves out has no match in the text, so what the lists find is what they
//! found without the screen.
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

/// The most strings a run of a sequence spells before it is cut: past this, the words of its
/// parts, required together, rule out nearly as much with fewer words to search for.
const MAX_PRODUCT: usize = 128;

/// The most ways (branches) a pattern's requirement is kept apart before they are merged.
const MAX_BRANCHES: usize = 512;

/// The most sets a branch requires together: the rarest ones are kept.
const MAX_FACTORS: usize = 3;

/// The shortest word of a set that is required beside a rarer one: a single character
/// occurs in nearly every text and rules out nothing.
const MIN_SECOND: usize = 2;

/// A set of strings.
type Set = BTreeSet<Vec<u8>>;

/// Sets of strings that every match of one way through a pattern holds together: one string
/// of each set. Never empty.
type Conjunction = Vec<Set>;

/// What every match of a node holds: the strings it may be (`exact`), and the ways through
/// it, each with the sets it needs (`branches`; `None` where some match may hold nothing
/// rare enough to say).
#[derive(Debug, Clone, Default)]
struct Literals {
    /// Every match of the node is one of these.
    exact: Option<Set>,
    /// Every match of the node holds, for one of these branches, a string of each of its
    /// sets.
    branches: Option<Vec<Conjunction>>,
}

/// How rare a set is likely to be: its shortest word, then the fewer words the better.
fn rank(set: &Set) -> (usize, usize) {
    let shortest = set.iter().map(Vec::len).min().unwrap_or(0);
    (shortest, usize::MAX - set.len())
}

/// Whether every string of `a` holds some string of `b`: then `b` adds nothing to `a`.
fn implies(a: &Set, b: &Set) -> bool {
    a.iter().all(|x| {
        b.iter().any(|y| {
            let y: Vec<u8> = y.iter().copied().filter(|&c| c != BOUNDARY).collect();
            y.is_empty() || x.windows(y.len()).any(|w| w == y.as_slice())
        })
    })
}

/// The rarest sets of `sets`, at most [`MAX_FACTORS`], none implied by a rarer one kept,
/// and after the first only those [`worth_requiring`].
fn rarest(mut sets: Vec<Set>) -> Conjunction {
    sets.sort_by_key(|s| std::cmp::Reverse(rank(s)));
    let mut out: Conjunction = Vec::new();
    for set in sets {
        if out.len() == MAX_FACTORS {
            break;
        }
        if !out.is_empty() && !worth_requiring(&set) {
            continue;
        }
        if !out.iter().any(|kept| implies(kept, &set)) {
            out.push(set);
        }
    }
    out
}

/// Whether a set is worth requiring beside a rarer one: none of its words is shorter than
/// [`MIN_SECOND`] (boundaries left out).
fn worth_requiring(set: &Set) -> bool {
    set.iter()
        .all(|w| w.iter().filter(|&&b| b != BOUNDARY).count() >= MIN_SECOND)
}

/// The rarest single set of a conjunction.
fn best(conjunction: &Conjunction) -> Option<&Set> {
    conjunction.iter().max_by_key(|s| rank(s))
}

/// One set that every match of any of `branches` holds a string of: the union of each
/// branch's rarest set.
fn merged(branches: &[Conjunction]) -> Option<Set> {
    let mut out = Set::new();
    for branch in branches {
        out.extend(best(branch)?.iter().cloned());
    }
    (!out.is_empty()).then_some(out)
}

/// A set of strings as a factor, when none of them is empty (a boundary alone is empty).
fn as_factor(set: &Set) -> Option<Set> {
    (!set.is_empty() && set.iter().all(|s| s.iter().any(|&b| b != BOUNDARY))).then(|| set.clone())
}

/// The one branch of a set that is a factor.
fn one(set: Option<Set>) -> Option<Vec<Conjunction>> {
    set.map(|s| vec![vec![s]])
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
fn product(a: &Set, b: &Set) -> Option<Set> {
    if a.len() * b.len() > MAX_PRODUCT {
        return None;
    }
    Some(
        a.iter()
            .flat_map(|x| b.iter().map(move |y| squeezed(&[x.as_slice(), y].concat())))
            .collect(),
    )
}

/// The literals of one node of a pattern.
fn literals(hir: &Hir, fold: bool) -> Literals {
    match hir.kind() {
        HirKind::Look(Look::WordAscii) => Literals {
            exact: Some(Set::from([vec![BOUNDARY]])),
            branches: None,
        },
        // A look-around matches the empty string (when it matches at all).
        HirKind::Empty | HirKind::Look(_) => Literals {
            exact: Some(Set::from([Vec::new()])),
            branches: None,
        },
        HirKind::Literal(l) => {
            let set = Set::from([squeezed(&folded(&l.0, fold))]);
            Literals {
                branches: one(as_factor(&set)),
                exact: Some(set),
            }
        }
        HirKind::Class(class) => {
            let exact = class_strings(class, fold);
            Literals {
                branches: one(exact.as_ref().and_then(as_factor)),
                exact,
            }
        }
        HirKind::Capture(c) => literals(&c.sub, fold),
        HirKind::Repetition(r) => {
            let sub = literals(&r.sub, fold);
            match (r.min, r.max) {
                (1, Some(1)) => sub,
                (0, Some(1)) => Literals {
                    exact: sub.exact.map(|mut e| {
                        e.insert(Vec::new());
                        e
                    }),
                    branches: None,
                },
                // A run of blanks reads as one space, however long.
                (_, None)
                    if sub
                        .exact
                        .as_ref()
                        .is_some_and(|e| e.len() == 1 && e.contains(&b" "[..])) =>
                {
                    let space = Set::from([b" ".to_vec()]);
                    if r.min == 0 {
                        Literals {
                            exact: Some(Set::from([Vec::new(), b" ".to_vec()])),
                            branches: None,
                        }
                    } else {
                        Literals {
                            branches: one(as_factor(&space)),
                            exact: Some(space),
                        }
                    }
                }
                (0, _) => Literals::default(),
                // At least once: what one match of the node needs, the repetition needs.
                _ => Literals {
                    branches: sub
                        .branches
                        .or_else(|| one(sub.exact.as_ref().and_then(as_factor))),
                    exact: None,
                },
            }
        }
        HirKind::Concat(children) => concat(children, fold),
        HirKind::Alternation(children) => {
            let mut exact = Some(Set::new());
            let mut branches = Some(Vec::new());
            for child in children {
                let lit = literals(child, fold);
                exact = match (exact, lit.exact) {
                    (Some(mut a), Some(b)) if a.len() + b.len() <= MAX_SET => {
                        a.extend(b);
                        Some(a)
                    }
                    _ => None,
                };
                branches = match (branches, lit.branches) {
                    (Some(mut a), Some(b)) => {
                        a.extend(b);
                        Some(a)
                    }
                    _ => None,
                };
            }
            // Strings apart (`always|only`) are one set of words; ways apart are kept apart,
            // unless there are too many: then one set that each of them holds a string of.
            if let Some(e) = &exact {
                branches = one(as_factor(e));
            } else if let Some(b) = &mut branches {
                b.sort();
                b.dedup();
                if b.len() > MAX_BRANCHES {
                    branches = one(merged(b));
                }
            }
            Literals { exact, branches }
        }
    }
}

/// The literals of a sequence: its children's requirements, each branch of one with each of
/// the others', and the strings its runs of exact children spell across them.
fn concat(children: &[Hir], fold: bool) -> Literals {
    // The sets that every match needs whichever way it takes: the runs of exact children.
    let mut common: Vec<Set> = Vec::new();
    // The ways through the sequence so far, each with what it needs.
    let mut ways: Vec<Conjunction> = vec![Vec::new()];
    // The strings of the run of children with exact sets so far.
    let mut run: Set = Set::from([Vec::new()]);
    let mut all_exact = true;
    for child in children {
        let lit = literals(child, fold);
        match &lit.exact {
            Some(e) => match product(&run, e) {
                Some(p) => run = p,
                None => {
                    common.extend(as_factor(&run));
                    run = e.clone();
                    all_exact = false;
                }
            },
            None => {
                common.extend(as_factor(&run));
                run = Set::from([Vec::new()]);
                all_exact = false;
            }
        }
        let Some(branches) = lit.branches else {
            continue;
        };
        if ways.len() * branches.len() <= MAX_BRANCHES {
            ways = ways
                .iter()
                .flat_map(|w| {
                    branches.iter().map(move |b| {
                        let mut w = w.clone();
                        w.extend(b.iter().cloned());
                        w
                    })
                })
                .collect();
        } else {
            common.extend(merged(&branches));
        }
    }
    common.extend(as_factor(&run));
    let mut branches: Vec<Conjunction> = ways
        .into_iter()
        .map(|mut w| {
            w.extend(common.iter().cloned());
            rarest(w)
        })
        .collect();
    branches.sort();
    branches.dedup();
    Literals {
        exact: all_exact.then_some(run),
        branches: (!branches.iter().any(Vec::is_empty)).then_some(branches),
    }
}

/// `bytes`, in ASCII lower case when `fold` is set.
fn folded(bytes: &[u8], fold: bool) -> Vec<u8> {
    if fold {
        bytes.to_ascii_lowercase()
    } else {
        bytes.to_vec()
    }
}

/// The strings a small class matches, one character each (in ASCII lower case when `fold`
/// is set: `[Rr]` is `r`).
fn class_strings(class: &Class, fold: bool) -> Option<Set> {
    let mut out = Set::new();
    match class {
        Class::Unicode(c) => {
            for r in c.ranges() {
                for ch in r.start()..=r.end() {
                    out.insert(squeezed(&folded(ch.to_string().as_bytes(), fold)));
                    if out.len() > 4 {
                        return None;
                    }
                }
            }
        }
        Class::Bytes(c) => {
            for r in c.ranges() {
                for b in r.start()..=r.end() {
                    out.insert(squeezed(&folded(&[b], fold)));
                    if out.len() > 4 {
                        return None;
                    }
                }
            }
        }
    }
    Some(out)
}

/// The ways through `pattern`, each with the sets of words every match taking it holds one
/// of each, or `None` when some match may hold none of a small set of words (the pattern is
/// then always searched).
pub(crate) fn necessary_words(pattern: &str, fold: bool) -> Option<Vec<Conjunction>> {
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .unwrap_or_else(|e| unreachable!("a pattern does not parse: {e}"));
    // A node whose strings are a factor has them as its one branch already.
    literals(&hir, fold).branches
}

/// The most pattern lists a screen reads.
pub(crate) const MAX_LISTS: usize = 8;

/// The most patterns a list holds: one bit each in a [`Patterns`].
pub(crate) const MAX_PATTERNS: usize = 128;

/// A bit for each pattern of a list: pattern `j` is bit `1 << j`.
pub(crate) type Patterns = u128;

/// For each list, the patterns that may match a text (a list none of whose patterns may
/// match finds nothing in it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Possible([Patterns; MAX_LISTS]);

impl Possible {
    /// The patterns of list `list` that may match.
    pub(crate) fn of(&self, list: usize) -> Patterns {
        self.0.get(list).copied().unwrap_or(0)
    }

    /// A bit for each list of which some pattern may match: list `i` is bit `1 << i`.
    #[cfg(test)]
    pub(crate) fn lists(&self) -> u32 {
        (0..MAX_LISTS)
            .filter(|&i| self.0[i] != 0)
            .fold(0, |bits, i| bits | 1 << i)
    }
}

/// One way a word of the screen is necessary: to which set of which branch, and whether a
/// word boundary must hold at its start and at its end.
#[derive(Debug, Clone, Copy)]
struct Use {
    branch: u32,
    /// The set's bit in its branch's conjunction.
    set: u8,
    boundary_before: bool,
    boundary_after: bool,
}

/// One way through a pattern: its list, its place in the list, and the bits of every set it
/// needs.
#[derive(Debug, Clone, Copy)]
struct Branch {
    list: u8,
    pattern: u8,
    needs: u8,
}

/// One literal automaton for the necessary words of every pattern of several lists.
pub(crate) struct Screen {
    /// The words of every pattern, without their boundaries.
    words: AhoCorasick,
    /// How each word is necessary: word `i`'s uses are `uses[starts[i]..starts[i + 1]]`.
    uses: Vec<Use>,
    /// Where each word's uses start in `uses`, and their end.
    starts: Vec<u32>,
    /// Every branch of every pattern.
    branches: Vec<Branch>,
    /// The patterns without necessary words: always searched.
    always: Possible,
    /// Every pattern.
    all: Possible,
    /// Whether the words are read in ASCII lower case, for patterns that ignore case.
    fold: bool,
}

impl Screen {
    /// The screen of the pattern lists `lists`, each a list of patterns.
    ///
    /// # Panics
    /// With more than [`MAX_LISTS`] lists or more than [`MAX_PATTERNS`] patterns in a list:
    /// the lists are the crate's own, and a test builds them.
    pub(crate) fn new<S: AsRef<str>>(lists: &[&[S]]) -> Screen {
        Screen::build(lists, false)
    }

    /// The screen of pattern lists that ignore case (`(?i)`) or are read as if they did: its
    /// words are in ASCII lower case, and so is the text it reads. Unicode's case folding
    /// matches a few letters outside ASCII (the Kelvin sign for `k`), so a text that is not
    /// all ASCII lets every pattern through.
    pub(crate) fn folded<S: AsRef<str>>(lists: &[&[S]]) -> Screen {
        Screen::build(lists, true)
    }

    fn build<S: AsRef<str>>(lists: &[&[S]], fold: bool) -> Screen {
        assert!(
            lists.len() <= MAX_LISTS,
            "at most {MAX_LISTS} pattern lists"
        );
        let mut words: Vec<Vec<u8>> = Vec::new();
        let mut index: std::collections::HashMap<Vec<u8>, usize> = std::collections::HashMap::new();
        // (word, use), gathered first: the screen's own tables are made once the reading of
        // the patterns has freed what it held, in two allocations rather than one per word.
        let mut found: Vec<(u32, Use)> = Vec::new();
        let mut branches: Vec<Branch> = Vec::new();
        let mut always = Possible::default();
        let mut all = Possible::default();
        for (l, patterns) in lists.iter().enumerate() {
            assert!(
                patterns.len() <= MAX_PATTERNS,
                "at most {MAX_PATTERNS} patterns in a list"
            );
            for (j, pattern) in patterns.iter().enumerate() {
                let bit: Patterns = 1 << j;
                all.0[l] |= bit;
                let Some(ways) = necessary_words(pattern.as_ref(), fold) else {
                    always.0[l] |= bit;
                    continue;
                };
                for conjunction in ways {
                    let branch = u32::try_from(branches.len())
                        .unwrap_or_else(|_| unreachable!("fewer than 2^32 branches"));
                    branches.push(Branch {
                        list: l as u8,
                        pattern: j as u8,
                        needs: (1u8 << conjunction.len()) - 1,
                    });
                    for (k, set) in conjunction.into_iter().enumerate() {
                        for raw in set {
                            let word: Vec<u8> =
                                raw.iter().copied().filter(|&b| b != BOUNDARY).collect();
                            // A boundary is checked next to a letter or a digit only: next
                            // to a blank, the screen's text has lost what the pattern's text
                            // had there.
                            let use_ = Use {
                                branch,
                                set: 1 << k,
                                boundary_before: raw.first() == Some(&BOUNDARY)
                                    && word.first().is_some_and(u8::is_ascii_alphanumeric),
                                boundary_after: raw.last() == Some(&BOUNDARY)
                                    && word.last().is_some_and(u8::is_ascii_alphanumeric),
                            };
                            let at = *index.entry(word.clone()).or_insert_with(|| {
                                words.push(word);
                                words.len() - 1
                            });
                            let at = u32::try_from(at)
                                .unwrap_or_else(|_| unreachable!("fewer than 2^32 words"));
                            found.push((at, use_));
                        }
                    }
                }
            }
        }
        drop(index);
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&words)
            .unwrap_or_else(|e| unreachable!("the screen's words do not compile: {e}"));
        drop(words);
        // Stable: a word's uses keep the order of the patterns and branches.
        found.sort_by_key(|&(word, _)| word);
        let mut starts = Vec::with_capacity(automaton.patterns_len() + 1);
        let mut uses = Vec::with_capacity(found.len());
        for (word, use_) in found {
            while starts.len() <= word as usize {
                starts.push(u32::try_from(uses.len()).unwrap_or(u32::MAX));
            }
            uses.push(use_);
        }
        while starts.len() <= automaton.patterns_len() {
            starts.push(u32::try_from(uses.len()).unwrap_or(u32::MAX));
        }
        branches.shrink_to_fit();
        Screen {
            words: automaton,
            uses,
            starts,
            branches,
            always,
            all,
            fold,
        }
    }

    /// The patterns that may match `text`: those with a branch whose every set has a word in
    /// it, and those without necessary words.
    pub(crate) fn possible(&self, text: &str) -> Possible {
        let mut possible = self.always;
        let buffer: Vec<u8>;
        let lower: Vec<u8>;
        let mut bytes = text.as_bytes();
        if self.fold {
            if !text.is_ascii() {
                return self.all;
            }
            if bytes.iter().any(u8::is_ascii_uppercase) {
                lower = bytes.to_ascii_lowercase();
                bytes = &lower;
            }
        }
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
        // The sets found so far of each branch met (few: most texts hold few of the words).
        let mut met: Vec<(u32, u8)> = Vec::new();
        for m in self.words.find_overlapping_iter(text) {
            let before = outside(m.start().checked_sub(1));
            let after = outside(Some(m.end()));
            let word = m.pattern().as_usize();
            let (from, to) = (self.starts[word] as usize, self.starts[word + 1] as usize);
            for u in &self.uses[from..to] {
                if (!before && u.boundary_before) || (!after && u.boundary_after) {
                    continue;
                }
                let branch = self.branches[u.branch as usize];
                let (list, bit) = (usize::from(branch.list), 1 << branch.pattern);
                if possible.0[list] & bit != 0 {
                    continue;
                }
                // A way that needs one set only is met by this word alone.
                if branch.needs == u.set {
                    possible.0[list] |= bit;
                    continue;
                }
                let found = match met.iter_mut().find(|(b, _)| *b == u.branch) {
                    Some((_, sets)) => {
                        *sets |= u.set;
                        *sets
                    }
                    None => {
                        met.push((u.branch, u.set));
                        u.set
                    }
                };
                if found == branch.needs {
                    possible.0[list] |= bit;
                }
            }
            if possible == self.all {
                break;
            }
        }
        possible
    }
}

/// The prose strings (those with a space, values and keys) of the JSON files under
/// `fixtures/<dir>` for each of `dirs`, each once: the texts the screens' tests hold the
/// screened searches to.
#[cfg(test)]
pub(crate) fn fixture_prose(dirs: &[&str]) -> Vec<String> {
    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.push(k.clone());
                    strings(v, out);
                }
            }
            _ => {}
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut texts = Vec::new();
    let mut pending: Vec<_> = dirs.iter().map(|d| root.join(d)).collect();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
                strings(&value, &mut texts);
            }
        }
    }
    texts.retain(|t| t.contains(' '));
    texts.sort_unstable();
    texts.dedup();
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ways through `pattern`, each with its sets of words, a boundary written `|`.
    fn ways(pattern: &str) -> Option<Vec<Vec<Vec<String>>>> {
        necessary_words(pattern, false).map(|ways| {
            ways.into_iter()
                .map(|sets| {
                    sets.into_iter()
                        .map(|set| {
                            set.into_iter()
                                .map(|w| {
                                    String::from_utf8(w)
                                        .unwrap_or_default()
                                        .replace('\u{1}', "|")
                                })
                                .collect()
                        })
                        .collect()
                })
                .collect()
        })
    }

    /// The words of `pattern` when it has one way through with one set.
    fn words(pattern: &str) -> Option<Vec<String>> {
        let mut ways = ways(pattern)?;
        assert_eq!(ways.len(), 1, "{pattern}: {ways:?}");
        let mut sets = ways.pop()?;
        assert_eq!(sets.len(), 1, "{pattern}: {sets:?}");
        sets.pop()
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
        // Each way through the pattern apart; single letters are not worth requiring
        // beside a rarer word.
        assert_eq!(
            ways(r"(?:a|b)x+(?:the|an)?[a-z]{0,4}tool|dog"),
            Some(vec![
                vec![vec!["dog".to_owned()]],
                vec![vec!["tool".to_owned()]]
            ])
        );
        // A branch that may match anything leaves the pattern without necessary words.
        assert_eq!(words(r"tool|[a-z]+"), None);
        assert_eq!(words(r"(the )?user"), Some(vec!["user".to_owned()]));
    }

    #[test]
    fn requires_the_words_of_every_part_of_a_sequence_together() {
        let pattern = r"(?-u:\b)(user|users)(?-u:\b)[^.\n]{0,30}(?-u:\b)(already|bereits)(?-u:\b)[^.\n]{0,20}(?-u:\b)(approved|consented)(?-u:\b)";
        let found = ways(pattern).unwrap_or_default();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0],
            vec![
                vec!["|approved|".to_owned(), "|consented|".to_owned()],
                vec!["|already|".to_owned(), "|bereits|".to_owned()],
                vec!["|user|".to_owned(), "|users|".to_owned()],
            ]
        );
        let screen = Screen::new(&[&[pattern]]);
        // One word of the three is not enough, nor two; all three are.
        assert_eq!(screen.possible("the user asked for it").lists(), 0);
        assert_eq!(screen.possible("the user has already paid").lists(), 0);
        assert_eq!(
            screen
                .possible("the user has already approved this")
                .lists(),
            1
        );
        // The words may come in any order: the screen is necessary, not sufficient.
        assert_eq!(screen.possible("approved: already. user").lists(), 1);
        // A way needs its own words, not another way's.
        let screen = Screen::new(&[&[
            r"(?-u:\b)secret (key|token) please|ignore (all|any) (prior|previous) rules",
        ]]);
        assert_eq!(screen.possible("ignore the secret key").lists(), 0);
        assert_eq!(
            screen.possible("please ignore all previous rules").lists(),
            1
        );
        assert_eq!(screen.possible("a secret token please").lists(), 1);
    }

    #[test]
    fn lets_through_only_the_lists_whose_words_occur() {
        let screen = Screen::new(&[
            &[r"(?-u:\b)call (this|me)(?-u:\b)"],
            &[r"secret|password"],
            &[r"\w+"],
        ]);
        assert_eq!(screen.possible("nothing here").lists(), 0b100);
        assert_eq!(screen.possible("always call me").lists(), 0b101);
        assert_eq!(screen.possible("the password").lists(), 0b110);
        // A word boundary of the pattern is one of the screen's words.
        assert_eq!(screen.possible("recall mention").lists(), 0b100);
        assert_eq!(screen.possible("call_me").lists(), 0b101);
        // Within a list, each pattern has its own bit: only those whose words occur.
        let screen = Screen::new(&[&[
            r"(?-u:\b)call (this|me)(?-u:\b)",
            r"secret|password",
            r"(?-u:\b)before any other tool(?-u:\b)",
            r"\w+",
        ]]);
        assert_eq!(screen.possible("nothing here").of(0), 0b1000);
        assert_eq!(
            screen.possible("call me before any other tool").of(0),
            0b1101
        );
        assert_eq!(screen.possible("the password").of(0), 0b1010);
        assert_eq!(screen.possible("the password").of(1), 0);
    }
}
