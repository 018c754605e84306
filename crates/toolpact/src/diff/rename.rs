//! Rename detection: a tool that disappears while another appears with nearly the same
//! contract is probably one tool renamed.

use crate::canonical::utf16_cmp;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// A removed tool and the added tool it probably became.
pub(super) struct Rename {
    /// The removed tool's index among the old tools.
    pub(super) old: usize,
    /// The added tool's index among the new tools.
    pub(super) new: usize,
    /// Why they look like one tool, for the message.
    pub(super) why: String,
}

/// Contracts (without the name) at least this alike are probably one tool renamed.
const RENAME_SIMILARITY: f64 = 0.8;

/// Past this many removed × added pairs, only identical input schemas count as a rename, so
/// that a catalog replaced whole does not cost a comparison of every pair.
const RENAME_MAX_PAIRS: usize = 10_000;

/// The likely renames among the `removed` old tools and the `added` new ones (indexes into
/// `old` and `new`, which are pairs of name and canonical contract), each tool in at most
/// one rename, the most alike pairs first.
pub(super) fn probable_renames(
    old: &[(String, Value)],
    new: &[(String, Value)],
    removed: &[usize],
    added: &[usize],
) -> Vec<Rename> {
    let compare_lines = removed.len().saturating_mul(added.len()) <= RENAME_MAX_PAIRS;
    let lines_of = |contract: &Value| -> HashMap<String, usize> {
        if compare_lines {
            contract_lines(contract)
        } else {
            HashMap::new()
        }
    };
    let old_lines: HashMap<usize, HashMap<String, usize>> =
        removed.iter().map(|&i| (i, lines_of(&old[i].1))).collect();
    let new_lines: HashMap<usize, HashMap<String, usize>> =
        added.iter().map(|&j| (j, lines_of(&new[j].1))).collect();
    let mut candidates: Vec<(f64, usize, usize, String)> = Vec::new();
    for &i in removed {
        for &j in added {
            let (a, b) = (&old[i].1, &new[j].1);
            let same_input = a.get("inputSchema") == b.get("inputSchema")
                && a.pointer("/inputSchema/properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty());
            let similarity = match (old_lines.get(&i), new_lines.get(&j)) {
                (Some(x), Some(y)) => dice(x, y),
                _ => 0.0,
            };
            if same_input {
                candidates.push((1.0 + similarity, i, j, "the same input schema".to_owned()));
            } else if similarity >= RENAME_SIMILARITY {
                let percent = (similarity * 100.0).floor();
                candidates.push((similarity, i, j, format!("{percent}% alike")));
            }
        }
    }
    // Best pairs first; ties in the order of the names, so the result does not depend on
    // the order of the input.
    candidates.sort_by(|x, y| {
        y.0.total_cmp(&x.0)
            .then_with(|| utf16_cmp(&old[x.1].0, &old[y.1].0))
            .then_with(|| utf16_cmp(&new[x.2].0, &new[y.2].0))
    });
    let mut taken_old = HashSet::new();
    let mut taken_new = HashSet::new();
    let mut renames = Vec::new();
    for (_, i, j, why) in candidates {
        if taken_old.contains(&i) || taken_new.contains(&j) {
            continue;
        }
        taken_old.insert(i);
        taken_new.insert(j);
        renames.push(Rename {
            old: i,
            new: j,
            why,
        });
    }
    renames
}

/// The lines of a contract's pretty canonical JSON that say something (not only brackets),
/// without the name and without trailing commas, with how often each occurs.
fn contract_lines(contract: &Value) -> HashMap<String, usize> {
    let mut contract = contract.clone();
    if let Some(obj) = contract.as_object_mut() {
        obj.shift_remove("name");
    }
    let text = serde_json::to_string_pretty(&contract).unwrap_or_default();
    let mut lines = HashMap::new();
    for line in text.lines() {
        let line = line.trim().trim_end_matches(',');
        if line.chars().any(char::is_alphanumeric) {
            *lines.entry(line.to_owned()).or_insert(0) += 1;
        }
    }
    lines
}

/// How alike two multisets of lines are: twice the lines they share over all their lines
/// (the Sørensen–Dice coefficient), from 0 to 1. Linear in the number of lines, unlike a diff.
fn dice(a: &HashMap<String, usize>, b: &HashMap<String, usize>) -> f64 {
    let total: usize = a.values().sum::<usize>() + b.values().sum::<usize>();
    if total == 0 {
        return 0.0;
    }
    let shared: usize = a
        .iter()
        .map(|(line, n)| (*n).min(b.get(line).copied().unwrap_or(0)))
        .sum();
    2.0 * shared as f64 / total as f64
}
