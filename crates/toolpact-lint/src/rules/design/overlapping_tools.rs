use crate::analysis::paraphrase::{Meaning, drop_common_parameters, meaning, same_meaning};
use crate::analysis::words::{for_each_identifier_word, is_comparison_stop_word, normal_word};
use crate::context::Context;
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{Rule, declare_rule};
use toolpact::Tool;

declare_rule! {
    /// ## What it does
    /// Finds tools whose names and descriptions say nearly the same thing as another tool's.
    ///
    /// Each tool is reduced to the set of its words — name and description, without common
    /// English words, plurals folded, and synonyms of a verb made one (`find`, `lookup`,
    /// `query` → `search`; `fetch`, `retrieve` → `get`) — and two tools overlap when the
    /// Jaccard similarity of their sets (shared words over all words) reaches `threshold`
    /// percent (default 80).
    ///
    /// Tools that say the same thing in other words are found too: two tools overlap when
    /// they have the same action (one word per family of synonyms: `lookup`, `find`, `query`
    /// and `search`; `get`, `fetch`, `retrieve`, `read`, `describe` and `show`), act on the
    /// same things (the other words of their names, plurals folded; a word that only one name
    /// has must be in the other tool's description), and share at least
    /// `parameter-overlap` percent of their parameters (default 75; or all the parameters of
    /// one, the other's extra ones being optional), with parameter names
    /// in normal form (`q`, `keyword`, `search_term` and `query` are one; `limit`,
    /// `max_results` and `top_k` are one; parameters that more than half of a catalog's
    /// tools take, such as a cloud server's `tenant` and `retry_delay`, are left out). A name
    /// without a verb takes its action from the description's first word ("Looks up …").
    ///
    /// Each overlapping tool is reported once, at the earliest tool it overlaps with. Tools
    /// with fewer than three such words, and tools with the same name (see `duplicate-name`),
    /// are left out of the first comparison.
    ///
    /// The check scales to catalogs of a hundred thousand tools: candidates are found with
    /// MinHash signatures and locality-sensitive hashing, and, for paraphrases, by grouping
    /// tools on their action and each thing they act on, never by comparing every pair; each
    /// candidate is then verified with the exact similarity.
    ///
    /// ## Why is this bad?
    /// The model chooses a tool by comparing descriptions. When two say the same thing —
    /// "Search for products in the catalog." and "Find products in the catalog." — it picks
    /// one at random, alternates between them, or hesitates and asks; and a fix made to one
    /// (a new filter, a clearer description) never reaches the calls that go to the other.
    ///
    /// ## Example
    /// ```json
    /// [{"name": "search_products", "description": "Search for products in the catalog."},
    ///  {"name": "find_products", "description": "Find products in the catalog."}]
    /// ```
    ///
    /// ## Use instead
    /// One tool, or descriptions that say what sets each apart and when to call it:
    /// ```json
    /// [{"name": "search_products", "description": "Full-text search of the product catalog by keyword. Call this when the user describes what they want."},
    ///  {"name": "get_product_by_sku", "description": "Exact lookup of one product by its SKU, e.g. \"SKU-1042\". Call this when the user gives a SKU."}]
    /// ```
    ///
    /// ## References
    /// - Overlapping tools with similar descriptions make the model pick wrong or hesitate
    /// - Broder, "On the resemblance and containment of documents" (1997): MinHash
    /// - Leskovec, Rajaraman, Ullman, *Mining of Massive Datasets*, ch. 3: banding
    pub struct OverlappingTools {
        code: "TP208",
        name: "overlapping-tools",
        category: Design,
        severity: Warning,
        options: [
            RuleOption { name: "threshold", default: 80, doc: "the Jaccard similarity, in percent, from which two tools overlap" },
            RuleOption { name: "parameter-overlap", default: 75, doc: "for two tools with the same action on the same things, the share of parameters, in percent, from which they overlap; above 100 turns this comparison off" },
        ],
    }
}

/// Tools with fewer distinct words than this are too short to compare.
const MIN_WORDS: usize = 3;

/// The length of the longest stopword, in bytes.
const STOPWORD_MAX_LEN: usize = 6;

/// MinHash values per tool.
const HASHES: usize = 64;

/// In a bucket of tools that share a band, each tool is compared with this many of the
/// first members and this many of those just before it, so that a crowded bucket (many
/// templated tools) costs a bounded number of comparisons per tool.
const BUCKET_WINDOW: usize = 4;

/// The words of a tool: hashes of its normalized name and description words, sorted and
/// without repeats.
fn word_set(tool: &Tool) -> Vec<u64> {
    let mut set = Vec::new();
    let mut push = |word: &str| {
        // Stopwords are short: a length test spares most words the search.
        if word.chars().nth(1).is_none()
            || (word.len() <= STOPWORD_MAX_LEN && is_comparison_stop_word(word))
        {
            return;
        }
        set.push(hash_word(normal_word(word)));
    };
    for_each_identifier_word(&tool.name, &mut push);
    if let Some(description) = &tool.description {
        let mut lower = String::new();
        for raw in description.split(|c: char| !c.is_alphanumeric()) {
            if raw.is_empty() {
                continue;
            }
            if raw
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                push(raw);
                continue;
            }
            lower.clear();
            lower.extend(raw.chars().flat_map(char::to_lowercase));
            push(&lower);
        }
    }
    set.sort_unstable();
    set.dedup();
    set
}

/// FNV-1a, then a finalizer so that nearby words spread over all bits.
fn hash_word(word: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in word.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    mix(h)
}

/// The splitmix64 finalizer.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Multipliers and offsets of the hash functions: `(a·x + c) >> 32` with `a` odd is a good
/// enough family for MinHash over already well-mixed word hashes.
fn hash_family() -> [(u64, u64); HASHES] {
    let mut family = [(0, 0); HASHES];
    let mut seed = 0x05ee_d0f7_0015_u64;
    for f in &mut family {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let a = mix(seed) | 1;
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        *f = (a, mix(seed));
    }
    family
}

/// Bands and rows per band for a threshold: the probability that two tools share a band,
/// 1 − (1 − s^rows)^bands, is at least 0.98 at the threshold itself.
fn banding(threshold: u64) -> (usize, usize) {
    match threshold {
        75.. => (16, 4),
        55..=74 => (21, 3),
        _ => (32, 2),
    }
}

/// The Jaccard similarity of two sorted sets as (shared, all).
fn jaccard(a: &[u64], b: &[u64]) -> (usize, usize) {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (shared, a.len() + b.len() - shared)
}

/// Whether two sets of `a` and `b` words may reach `threshold` percent of similarity: at most
/// the smaller set's words are shared, and at least the larger's are all of them, so a pair
/// whose sizes are too far apart is not compared word by word.
fn sizes_may_reach(a: usize, b: usize, threshold: u64) -> bool {
    (a.min(b) as u64) * 100 >= threshold * a.max(b) as u64
}

/// One overlap: a tool, the earlier tool it overlaps with most, and their similarity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Overlap {
    /// The tool reported.
    pub tool: usize,
    /// The earlier tool it overlaps with.
    pub other: usize,
    /// Shared words.
    pub shared: usize,
    /// All words of the two.
    pub all: usize,
}

/// The word sets of a run of tools, and their band keys: one `(key, tool)` per band of each
/// tool with enough words. `first` is the catalog position of `tools[0]`.
fn signatures(
    tools: &[&Tool],
    first: usize,
    (bands, rows): (usize, usize),
) -> (Vec<Vec<u64>>, Vec<(u64, u32)>) {
    let family = hash_family();
    let sets: Vec<Vec<u64>> = tools.iter().map(|t| word_set(t)).collect();
    let mut keys = Vec::with_capacity(tools.len() * bands);
    let mut mins = [u32::MAX; HASHES];
    for (offset, set) in sets.iter().enumerate() {
        let Ok(index) = u32::try_from(first + offset) else {
            break;
        };
        if set.len() < MIN_WORDS {
            continue;
        }
        mins.fill(u32::MAX);
        for &word in set {
            for (min, &(a, c)) in mins.iter_mut().zip(&family) {
                // The high half of a·x + c; truncation to 32 bits is the point.
                let value = (word.wrapping_mul(a).wrapping_add(c) >> 32) as u32;
                *min = (*min).min(value);
            }
        }
        for band in 0..bands {
            let mut key = mix(band as u64 + 1);
            for &m in &mins[band * rows..(band + 1) * rows] {
                key = mix(key ^ u64::from(m));
            }
            keys.push((key, index));
        }
    }
    (sets, keys)
}

/// The pairs of tools to compare, `(later, earlier)`, sorted and without repeats, from
/// `(key, tool)` entries: the tools that share a key, each with a bounded window of the
/// others (see [`BUCKET_WINDOW`]).
///
/// A catalog of templated tools has millions of pairs, most of them repeated from band to
/// band. They are gathered by tool in two passes over the buckets (count, then place) and
/// only each tool's own few are sorted, rather than all of them at once.
fn candidates(mut keys: Vec<(u64, u32)>) -> Vec<(u32, u32)> {
    keys.sort_unstable();
    let pairs = || {
        keys.chunk_by(|x, y| x.0 == y.0).flat_map(|bucket| {
            bucket
                .iter()
                .enumerate()
                .skip(1)
                .flat_map(move |(p, &(_, tool))| {
                    let first = 0..p.min(BUCKET_WINDOW);
                    let recent = p.saturating_sub(BUCKET_WINDOW).max(first.end)..p;
                    first
                        .chain(recent)
                        .map(move |q| (tool as usize, bucket[q].1))
                })
        })
    };
    let tools = keys
        .iter()
        .map(|&(_, tool)| tool as usize + 1)
        .max()
        .unwrap_or(0);
    // Where each tool's earlier tools start in `others`, then where the next one goes.
    let mut starts = vec![0usize; tools + 1];
    for (tool, _) in pairs() {
        starts[tool + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut next = starts.clone();
    let mut others = vec![0u32; starts[tools]];
    for (tool, other) in pairs() {
        others[next[tool]] = other;
        next[tool] += 1;
    }
    let mut candidates: Vec<(u32, u32)> = Vec::new();
    for (tool, range) in starts.windows(2).enumerate() {
        let Ok(tool) = u32::try_from(tool) else {
            break;
        };
        let mine = &mut others[range[0]..range[1]];
        mine.sort_unstable();
        for &other in mine.iter() {
            if candidates.last() != Some(&(tool, other)) {
                candidates.push((tool, other));
            }
        }
    }
    candidates
}

/// Below this many tools, signatures are computed on one thread.
const PARALLEL_FROM: usize = 4096;

/// Per tool, its word-set hashes; and the (band key, tool) pairs of its MinHash bands.
type Signatures = (Vec<Vec<u64>>, Vec<(u64, u32)>);

/// Finds, for every tool that overlaps an earlier one, the earlier tool it overlaps with
/// most (ties: the earliest). `threshold` is in percent.
pub(crate) fn overlaps(tools: &[&Tool], threshold: u64) -> Vec<Overlap> {
    let threshold = threshold.clamp(1, 100);
    let banding = banding(threshold);

    // Word sets and MinHash signatures are independent per tool: split them over the cores.
    let threads = if tools.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    };
    let chunk = tools.len().div_ceil(threads).max(1);
    let parts: Vec<Signatures> = if threads == 1 {
        vec![signatures(tools, 0, banding)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = tools
                .chunks(chunk)
                .enumerate()
                .map(|(i, part)| scope.spawn(move || signatures(part, i * chunk, banding)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    let mut sets: Vec<Vec<u64>> = Vec::with_capacity(tools.len());
    // One entry per (band, tool): the band's key, then the tool. Sorting puts the tools that
    // share a band next to each other, in catalog order.
    let mut keys: Vec<(u64, u32)> = Vec::with_capacity(tools.len() * banding.0);
    for (part_sets, part_keys) in parts {
        sets.extend(part_sets);
        keys.extend(part_keys);
    }
    let candidates = candidates(keys);

    let mut found: Vec<Overlap> = Vec::new();
    for (tool, other) in candidates {
        let (tool, other) = (tool as usize, other as usize);
        if tools[tool].name == tools[other].name {
            continue;
        }
        let (a, b) = (&sets[tool], &sets[other]);
        if !sizes_may_reach(a.len(), b.len(), threshold) {
            continue;
        }
        let (shared, all) = jaccard(a, b);
        if (shared as u64) * 100 < threshold * all as u64 {
            continue;
        }
        let overlap = Overlap {
            tool,
            other,
            shared,
            all,
        };
        match found.last_mut() {
            // Candidates come sorted by tool, then by the earlier tool: keep the most similar.
            Some(last) if last.tool == tool => {
                if shared * last.all > last.shared * all {
                    *last = overlap;
                }
            }
            _ => found.push(overlap),
        }
    }
    found
}

/// One pair of tools that say the same thing in other words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Paraphrase {
    /// The tool reported.
    pub tool: usize,
    /// The earlier tool it does the same as.
    pub other: usize,
    /// Their shared action.
    pub action: &'static str,
    /// The parameters they share, in normal form.
    pub parameters: Vec<String>,
    /// The things both act on, in normal form.
    pub objects: Vec<String>,
}

/// Finds, for every tool not in `reported` (sorted) that does the same as an earlier tool in
/// other words, the earliest such tool. Candidates are the tools that share an action and one
/// thing they act on, compared within a bounded window of each group.
pub(crate) fn paraphrases(
    tools: &[&Tool],
    parameter_overlap: u64,
    reported: &[usize],
) -> Vec<Paraphrase> {
    if parameter_overlap > 100 {
        return Vec::new();
    }
    let mut meanings: Vec<Option<Meaning<'_>>> = tools.iter().map(|t| meaning(t)).collect();
    drop_common_parameters(&mut meanings);
    let mut keys: Vec<(u64, u32)> = Vec::new();
    for (index, m) in meanings.iter().enumerate() {
        let (Some(m), Ok(index)) = (m, u32::try_from(index)) else {
            continue;
        };
        let action = hash_word(m.action);
        if m.objects.is_empty() {
            // A bare verb (`translate`): grouped with the other bare ones of its action.
            keys.push((action, index));
        }
        for object in &m.objects {
            keys.push((mix(action ^ hash_word(object)), index));
        }
    }
    let mut found: Vec<Paraphrase> = Vec::new();
    for (tool, other) in candidates(keys) {
        let (tool, other) = (tool as usize, other as usize);
        if found.last().is_some_and(|last| last.tool == tool)
            || reported.binary_search(&tool).is_ok()
            || tools[tool].name == tools[other].name
        {
            continue;
        }
        let (Some(a), Some(b)) = (&meanings[tool], &meanings[other]) else {
            continue;
        };
        if let Some(parameters) = same_meaning(a, b, parameter_overlap) {
            found.push(Paraphrase {
                tool,
                other,
                action: a.action,
                parameters,
                objects: a.objects.clone(),
            });
        }
    }
    found
}

impl Rule for OverlappingTools {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Violation>) {
        let threshold = cx.option(&Self::META, "threshold");
        let tools: Vec<&Tool> = cx.tools().map(|(_, t)| t).collect();
        let found = overlaps(&tools, threshold);
        let reported: Vec<usize> = found.iter().map(|o| o.tool).collect();
        for paraphrase in paraphrases(
            &tools,
            cx.option(&Self::META, "parameter-overlap"),
            &reported,
        ) {
            let tool = tools[paraphrase.tool];
            let other = tools[paraphrase.other];
            let origin = &cx.catalog.entries[paraphrase.other].origin;
            let parameters = if paraphrase.parameters.is_empty() {
                "neither takes parameters".to_owned()
            } else {
                format!(
                    "they share the parameters ({})",
                    paraphrase.parameters.join(", ")
                )
            };
            out.push(Violation {
                tool: Some(paraphrase.tool),
                pointer: if tool.description.is_some() {
                    "/description".to_owned()
                } else {
                    "/name".to_owned()
                },
                message: format!(
                    "`{}` does what `{}` ({origin}) does, in other words: both {} the same things ({}) and {parameters}, so the model cannot tell when to call which",
                    tool.name, other.name, paraphrase.action, paraphrase.objects.join(", ")
                ),
                help: format!(
                    "merge the two tools, or say in each description what sets it apart and when to call it rather than `{}`",
                    other.name
                ).into(),
            });
        }
        for overlap in found {
            let tool = tools[overlap.tool];
            let other = tools[overlap.other];
            let origin = &cx.catalog.entries[overlap.other].origin;
            let percent = overlap.shared * 100 / overlap.all.max(1);
            out.push(Violation {
                tool: Some(overlap.tool),
                pointer: if tool.description.is_some() {
                    "/description".to_owned()
                } else {
                    "/name".to_owned()
                },
                message: format!(
                    "`{}` overlaps with `{}` ({origin}): {percent}% of the words of their names and descriptions are the same, so the model cannot tell when to call which",
                    tool.name, other.name
                ),
                help: format!(
                    "merge the two tools, or say in each description what sets it apart and when to call it rather than `{}`",
                    other.name
                ).into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

    use super::{jaccard, overlaps, word_set};
    use crate::analysis::words::COMPARISON_STOP_WORDS;
    use std::collections::HashSet;
    use std::time::Instant;
    use toolpact::Tool;

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(COMPARISON_STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(
            COMPARISON_STOP_WORDS
                .iter()
                .all(|w| w.len() <= super::STOPWORD_MAX_LEN)
        );
    }

    #[test]
    fn synonyms_and_plurals_meet() {
        let a = Tool::new(
            "search_products",
            "Search for products in the catalog.",
            serde_json::json!({}),
        );
        let b = Tool::new(
            "find_products",
            "Find products in the catalog.",
            serde_json::json!({}),
        );
        let c = Tool::new(
            "lookup_catalog",
            "Look up products in the product catalog.",
            serde_json::json!({}),
        );
        let (sa, sb, sc) = (word_set(&a), word_set(&b), word_set(&c));
        assert_eq!(sa, sb);
        assert_eq!(sa, sc);
        assert_eq!(jaccard(&sa, &sb), (3, 3));
    }

    /// A small deterministic generator (splitmix64), so the test needs no dependency.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            super::mix(self.0)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        /// Skewed towards small numbers, like word frequencies.
        fn skewed(&mut self, n: usize) -> usize {
            let a = self.below(n);
            let b = self.below(n);
            a.min(b)
        }
    }

    /// A catalog of `n` tools with made-up words, and `planted` near-duplicates: copies of an
    /// earlier tool with one to three words replaced, two swapped and the verb changed for a
    /// synonym.
    fn generated_catalog(n: usize, planted: usize, seed: u64) -> (Vec<Tool>, Vec<(usize, usize)>) {
        let mut random = Random(seed);
        let vocabulary: Vec<String> = (0..8000)
            .map(|i| {
                let syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vi", "zo", "pe", "su"];
                let mut w = String::new();
                let mut x = i + 1;
                while x > 0 {
                    w.push_str(syllables[x % 10]);
                    x /= 10;
                }
                w
            })
            .collect();
        let verbs = [
            "get", "list", "create", "update", "delete", "search", "send", "read",
        ];
        let mut tools: Vec<Tool> = Vec::with_capacity(n);
        let mut pairs = Vec::new();
        let plant_every = n / planted.max(1);
        for i in 0..n {
            if planted > 0 && i % plant_every == plant_every - 1 && i > 0 {
                let original = random.below(i);
                let source = &tools[original];
                let mut words: Vec<String> = source
                    .description
                    .as_deref()
                    .unwrap()
                    .split(' ')
                    .map(str::to_owned)
                    .collect();
                // One to three words replaced: similarities from about 0.75 to 0.95, so that
                // some copies sit right at the threshold.
                for _ in 0..=random.below(3) {
                    let k = random.below(words.len());
                    words[k] = vocabulary[random.below(vocabulary.len())].clone();
                }
                let (x, y) = (random.below(words.len()), random.below(words.len()));
                words.swap(x, y);
                let name = source
                    .name
                    .replacen("search_", "find_", 1)
                    .replacen("get_", "fetch_", 1);
                let name = format!("{name}_v2");
                tools.push(Tool::new(
                    name,
                    words.join(" "),
                    serde_json::json!({"type": "object"}),
                ));
                pairs.push((i, original));
                continue;
            }
            let length = 18 + random.below(15);
            let words: Vec<&str> = (0..length)
                .map(|_| vocabulary[random.skewed(vocabulary.len())].as_str())
                .collect();
            let name = format!(
                "{}_{}_{i}",
                verbs[random.below(verbs.len())],
                vocabulary[random.below(vocabulary.len())]
            );
            tools.push(Tool::new(
                name,
                words.join(" "),
                serde_json::json!({"type": "object"}),
            ));
        }
        (tools, pairs)
    }

    #[test]
    fn overlap_recall_on_a_generated_catalog_of_20000_tools() {
        let (tools, planted) = generated_catalog(20_000, 400, 7);
        let refs: Vec<&Tool> = tools.iter().collect();
        let threshold = 80;
        // Only pairs that really reach the threshold count towards recall: replaced words push
        // some copies under it.
        let expected: Vec<(usize, usize)> = planted
            .iter()
            .copied()
            .filter(|&(a, b)| {
                let (shared, all) = jaccard(&word_set(refs[a]), &word_set(refs[b]));
                shared as u64 * 100 >= threshold * all as u64
            })
            .collect();
        assert!(
            expected.len() >= planted.len() / 2,
            "the generator plants near-duplicates"
        );

        let lowest = expected
            .iter()
            .map(|&(a, b)| {
                let (shared, all) = jaccard(&word_set(refs[a]), &word_set(refs[b]));
                shared as f64 / all as f64
            })
            .fold(1.0, f64::min);

        let start = Instant::now();
        let found = overlaps(&refs, threshold);
        let elapsed = start.elapsed();

        let reported: HashSet<usize> = found.iter().map(|o| o.tool).collect();
        let hits = expected
            .iter()
            .filter(|(a, _)| reported.contains(a))
            .count();
        let recall = hits as f64 / expected.len() as f64;
        for o in &found {
            assert!(o.other < o.tool);
            assert!(o.shared as u64 * 100 >= threshold * o.all as u64);
        }
        let unplanted = found
            .iter()
            .filter(|o| !expected.iter().any(|(a, _)| *a == o.tool))
            .count();
        println!(
            "overlap: {} tools, {} planted, {} of them over the threshold (lowest similarity {lowest:.3}), recall {:.4} ({hits}/{}), {} other overlaps reported, {:?}",
            tools.len(),
            planted.len(),
            expected.len(),
            recall,
            expected.len(),
            unplanted,
            elapsed
        );
        assert!(recall >= 0.98, "recall {recall}");
        assert_eq!(unplanted, 0, "random tools do not overlap");
    }

    #[test]
    fn a_pair_its_sizes_rule_out_never_reaches_the_threshold() {
        fn set(random: &mut Random, words: usize) -> Vec<u64> {
            let mut set: Vec<u64> = (0..words).map(|_| random.below(30) as u64).collect();
            set.sort_unstable();
            set.dedup();
            set
        }
        let mut random = Random(5);
        for _ in 0..20_000 {
            let (m, n) = (1 + random.below(25), 1 + random.below(25));
            let (a, b) = (set(&mut random, m), set(&mut random, n));
            let (shared, all) = jaccard(&a, &b);
            for threshold in 1..=100 {
                if !super::sizes_may_reach(a.len(), b.len(), threshold) {
                    assert!(
                        (shared as u64) * 100 < threshold * all as u64,
                        "{a:?} {b:?} {threshold}"
                    );
                }
            }
        }
    }

    #[test]
    fn candidates_are_the_window_pairs_sorted_without_repeats() {
        let mut random = Random(11);
        for (entries, distinct_keys) in [(0, 1), (1, 1), (50, 3), (5000, 40), (5000, 1500)] {
            let keys: Vec<(u64, u32)> = (0..entries)
                .map(|_| (random.below(distinct_keys) as u64, random.below(700) as u32))
                .collect();
            // Every pair of each bucket's window, sorted as a whole.
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            let mut want: Vec<(u32, u32)> = Vec::new();
            for bucket in sorted.chunk_by(|x, y| x.0 == y.0) {
                for (p, &(_, tool)) in bucket.iter().enumerate().skip(1) {
                    let first = 0..p.min(super::BUCKET_WINDOW);
                    let recent = p.saturating_sub(super::BUCKET_WINDOW).max(first.end)..p;
                    want.extend(first.chain(recent).map(|q| (tool, bucket[q].1)));
                }
            }
            want.sort_unstable();
            want.dedup();
            assert_eq!(super::candidates(keys), want, "{entries} entries");
        }
    }

    #[test]
    fn overlap_reports_each_tool_once_at_the_earliest_and_most_similar() {
        let text = "Search for products in the catalog by keyword, category, brand, price range, colour, size and rating, sorted by relevance";
        let tools: Vec<Tool> = (0..50)
            .map(|i| Tool::new(format!("search_products_{i}"), text, serde_json::json!({})))
            .collect();
        let refs: Vec<&Tool> = tools.iter().collect();
        let found = overlaps(&refs, 80);
        assert_eq!(found.len(), 49);
        assert!(found.iter().all(|o| o.other < o.tool));
        let tools: Vec<usize> = found.iter().map(|o| o.tool).collect();
        assert_eq!(tools, (1..50).collect::<Vec<_>>());
    }
}
