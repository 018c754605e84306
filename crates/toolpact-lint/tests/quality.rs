//! Measures the description rules against the labelled set in `fixtures/quality/`: for each
//! quality component, precision, recall and Cohen's kappa of the rule's findings against the
//! final labels, on the whole set, on the part used for tuning and on the held-out part; the
//! agreement between the two independent rating passes; and how the labels follow from them.
//! `docs/quality.md` reports these figures; `cargo test -p toolpact-lint --test quality --
//! --nocapture` prints them again.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use toolpact::Catalog;
use toolpact_lint::{COMPONENTS as COMPONENT_NAMES, Report, Settings, check};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/quality")
}

/// One rating of one tool: the six scores and the direction of a length problem.
#[derive(Debug, Clone, PartialEq)]
struct Rating {
    scores: [u8; 6],
    direction: String,
}

/// The ratings of a `.tsv` file of `fixtures/quality/`, by tool id.
fn ratings(file: &str) -> HashMap<String, Rating> {
    let text = std::fs::read_to_string(fixtures().join(file)).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let score = |i: usize| {
                cells[i]
                    .parse::<u8>()
                    .unwrap_or_else(|e| panic!("{file}: {line}: {e}"))
            };
            (
                cells[0].to_owned(),
                Rating {
                    scores: [score(1), score(2), score(3), score(4), score(5), score(7)],
                    direction: cells[6].to_owned(),
                },
            )
        })
        .collect()
}

/// A component as a yes/no question: its name, whether a rating calls it deficient, and the
/// codes of the rules whose findings say so.
struct Component {
    name: &'static str,
    deficient: fn(&Rating) -> bool,
    codes: &'static [&'static str],
}

const COMPONENTS: &[Component] = &[
    Component {
        name: "purpose (unclear)",
        deficient: |r| r.scores[0] <= 2,
        codes: &["TP101", "TP102", "TP113"],
    },
    Component {
        name: "usage guidelines (none)",
        deficient: |r| r.scores[1] <= 1,
        codes: &["TP104"],
    },
    Component {
        name: "limitations (unstated)",
        deficient: |r| r.scores[2] <= 1,
        codes: &["TP116"],
    },
    Component {
        name: "parameters (unexplained)",
        deficient: |r| r.scores[3] <= 2,
        codes: &["TP114"],
    },
    Component {
        name: "length (too brief)",
        deficient: |r| r.scores[4] <= 2 && r.direction == "b",
        codes: &["TP101", "TP103"],
    },
    Component {
        name: "examples (missing)",
        deficient: |r| r.scores[5] <= 2,
        codes: &["TP115"],
    },
];

/// Precision, recall and Cohen's kappa of `predicted` against `actual`.
#[derive(Debug, Clone, Copy)]
struct Agreement {
    n: usize,
    positives: usize,
    flagged: usize,
    precision: f64,
    recall: f64,
    kappa: f64,
}

fn agreement(pairs: &[(bool, bool)]) -> Agreement {
    let n = pairs.len();
    let flagged = pairs.iter().filter(|(p, _)| *p).count();
    let positives = pairs.iter().filter(|(_, a)| *a).count();
    let both = pairs.iter().filter(|(p, a)| *p && *a).count();
    let agree = pairs.iter().filter(|(p, a)| p == a).count();
    let nf = n as f64;
    let observed = agree as f64 / nf;
    let (pp, pa) = (flagged as f64 / nf, positives as f64 / nf);
    let expected = pp * pa + (1.0 - pp) * (1.0 - pa);
    Agreement {
        n,
        positives,
        flagged,
        precision: if flagged == 0 {
            1.0
        } else {
            both as f64 / flagged as f64
        },
        recall: if positives == 0 {
            1.0
        } else {
            both as f64 / positives as f64
        },
        kappa: if expected >= 1.0 {
            1.0
        } else {
            (observed - expected) / (1.0 - expected)
        },
    }
}

/// Cohen's kappa of two ratings on the 0–5 scale (six categories, unweighted).
fn kappa_of_scores(pairs: &[(u8, u8)]) -> f64 {
    let n = pairs.len() as f64;
    let observed = pairs.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let expected: f64 = (0..=5u8)
        .map(|k| {
            let a = pairs.iter().filter(|(x, _)| *x == k).count() as f64 / n;
            let b = pairs.iter().filter(|(_, y)| *y == k).count() as f64 / n;
            a * b
        })
        .sum();
    (observed - expected) / (1.0 - expected)
}

struct Labelled {
    ids: Vec<String>,
    held_out: Vec<bool>,
    /// The tools held out of the first draw, read while tuning since the second draw
    /// replaced them (`sample.py --round 2`).
    first_held_out: Vec<bool>,
    /// The second draw, held out until the third replaced it (`sample.py --round 3`), read
    /// while tuning since.
    second_held_out: Vec<bool>,
    /// The third draw, held out until the fourth replaced it (`sample.py --round 4`), read
    /// while tuning since.
    third_held_out: Vec<bool>,
    report: Report,
}

/// Checks the labelled tools with the description rules, each run as if selected.
fn checked() -> Labelled {
    let text = std::fs::read_to_string(fixtures().join("tools.json")).unwrap();
    let entries: Vec<Value> = serde_json::from_str(&text).unwrap();
    let ids = entries
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    let held_out = entries
        .iter()
        .map(|e| e["held_out"].as_bool().unwrap())
        .collect();
    let marked = |key: &str| {
        entries
            .iter()
            .map(|e| e[key].as_bool().unwrap_or(false))
            .collect()
    };
    let first_held_out = marked("first_held_out");
    let second_held_out = marked("second_held_out");
    let third_held_out = marked("third_held_out");
    let tools: Vec<&Value> = entries.iter().map(|e| &e["tool"]).collect();
    let list = serde_json::json!({ "tools": tools }).to_string();
    let catalog = Catalog::from_str_named(&list, "fixtures/quality/tools.json", None).unwrap();
    let mut settings = Settings::default();
    let codes = [
        "TP101", "TP102", "TP103", "TP104", "TP113", "TP114", "TP115", "TP116",
    ];
    settings
        .select(codes.iter().map(|c| (*c).to_owned()).collect())
        .unwrap();
    Labelled {
        ids,
        held_out,
        first_held_out,
        second_held_out,
        third_held_out,
        report: check(&catalog, &settings),
    }
}

/// For each component and each part of the set (all, tuning, held out, and the three former
/// held-out parts, now tuning), the agreement of the rules with the final labels.
fn measure(labelled: &Labelled) -> Vec<(&'static str, [Agreement; 6])> {
    let labels = ratings("labels.tsv");
    let mut flagged: HashMap<(usize, &str), bool> = HashMap::new();
    for finding in &labelled.report.findings {
        if let Some(index) = finding.tool_index {
            flagged.insert((index, finding.code), true);
        }
    }
    COMPONENTS
        .iter()
        .map(|component| {
            let pair = |i: usize| {
                let predicted = component
                    .codes
                    .iter()
                    .any(|code| flagged.contains_key(&(i, code)));
                let label = &labels[&labelled.ids[i]];
                (predicted, (component.deficient)(label))
            };
            let part = |keep: &dyn Fn(usize) -> bool| {
                let pairs: Vec<(bool, bool)> = (0..labelled.ids.len())
                    .filter(|&i| keep(i))
                    .map(pair)
                    .collect();
                agreement(&pairs)
            };
            (
                component.name,
                [
                    part(&|_| true),
                    part(&|i| !labelled.held_out[i]),
                    part(&|i| labelled.held_out[i]),
                    part(&|i| labelled.first_held_out[i]),
                    part(&|i| labelled.second_held_out[i]),
                    part(&|i| labelled.third_held_out[i]),
                ],
            )
        })
        .collect()
}

#[test]
fn the_labelled_set_is_complete_and_the_held_out_part_is_a_fifth() {
    let labelled = checked();
    let labels = ratings("labels.tsv");
    let first = ratings("pass1.tsv");
    let second = ratings("pass2.tsv");
    assert!(labelled.ids.len() >= 300);
    for id in &labelled.ids {
        assert!(
            labels.contains_key(id) && first.contains_key(id) && second.contains_key(id),
            "{id}"
        );
    }
    let held = labelled.held_out.iter().filter(|h| **h).count();
    assert!(
        (held as f64 / labelled.ids.len() as f64 - 0.2).abs() < 0.05,
        "{held}"
    );
    // Every tool is scored, on every component, within the scale.
    assert_eq!(labelled.report.quality.tools.len(), labelled.ids.len());
    assert!(
        labelled
            .report
            .quality
            .tools
            .iter()
            .all(|t| t.scores.iter().all(|&s| s <= 5))
    );
}

/// Scores of the first pass changed by re-reading the rubric before the second pass was
/// made: tool, component (index into the six scores), label.
const EARLIER_CORRECTIONS: &[(&str, usize, u8)] = &[
    (
        "aws-iac/get_cloudformation_pre_deploy_validation_instructions",
        1,
        1,
    ),
    ("cloudflare/workflow_list", 0, 2),
    ("reference-filesystem/get_file_info", 3, 1),
    ("tavily/tavily_search", 2, 1),
];

/// The settlements of `settled.tsv`: (tool, component index) to the settled score and, for
/// length, its direction.
fn settlements() -> HashMap<(String, usize), (u8, String)> {
    let text = std::fs::read_to_string(fixtures().join("settled.tsv")).unwrap();
    let mut settled = HashMap::new();
    for line in text.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), 7, "settled.tsv: {line}");
        assert!(
            !cells[6].trim().is_empty(),
            "a settlement gives its reason: {line}"
        );
        let component = COMPONENT_NAMES
            .iter()
            .position(|c| *c == cells[1])
            .unwrap_or_else(|| panic!("settled.tsv: {line}"));
        let score = cells[4].parse::<u8>().unwrap();
        // A direction belongs to length alone.
        assert!(component == 4 || cells[5] == "-", "settled.tsv: {line}");
        let previous = settled.insert(
            (cells[0].to_owned(), component),
            (score, cells[5].to_owned()),
        );
        assert!(previous.is_none(), "settled twice: {line}");
    }
    settled
}

/// The labels are the first pass, with the earlier corrections, and with every component on
/// which the independent second pass disagrees about "deficient or not" settled by the
/// rubric (`settled.tsv`): no disagreement is left unsettled, nothing else is changed.
#[test]
fn the_labels_are_the_first_pass_with_every_disagreement_settled() {
    let first = ratings("pass1.tsv");
    let second = ratings("pass2.tsv");
    let labels = ratings("labels.tsv");
    let settled = settlements();
    let mut before = first.clone();
    for (id, component, score) in EARLIER_CORRECTIONS {
        before.get_mut(*id).unwrap().scores[*component] = *score;
    }
    let mut disputes = 0;
    for (id, rating) in &before {
        let mut expected = rating.clone();
        for (c, component) in COMPONENTS.iter().enumerate() {
            let disputed = (component.deficient)(rating) != (component.deficient)(&second[id]);
            let settlement = settled.get(&(id.clone(), c));
            assert_eq!(
                disputed,
                settlement.is_some(),
                "{id}, {}: the passes {} on deficient or not, and settled.tsv {}",
                COMPONENT_NAMES[c],
                if disputed { "disagree" } else { "agree" },
                if settlement.is_some() {
                    "settles it"
                } else {
                    "does not"
                },
            );
            if let Some((score, direction)) = settlement {
                disputes += 1;
                expected.scores[c] = *score;
                if c == 4 {
                    expected.direction.clone_from(direction);
                }
            }
        }
        assert_eq!(labels[id], expected, "{id}");
    }
    assert_eq!(disputes, settled.len());
    println!("{disputes} disagreements settled");
}

/// How two ratings of the same tools agree on one component.
struct Compared {
    /// Tools given the same 0–5 score.
    exact: usize,
    /// Tools one rating calls deficient and the other does not.
    apart: usize,
    /// Cohen's kappa of the 0–5 scores.
    k6: f64,
    /// Cohen's kappa of "deficient or not".
    k2: f64,
}

/// Compares ratings `a` and `b` of the tools `ids` on the component at index `c`.
fn compare(
    c: usize,
    component: &Component,
    ids: &[&String],
    a: &HashMap<String, Rating>,
    b: &HashMap<String, Rating>,
) -> Compared {
    let scores: Vec<(u8, u8)> = ids
        .iter()
        .map(|id| (a[*id].scores[c], b[*id].scores[c]))
        .collect();
    let binary: Vec<(bool, bool)> = ids
        .iter()
        .map(|id| {
            (
                (component.deficient)(&a[*id]),
                (component.deficient)(&b[*id]),
            )
        })
        .collect();
    Compared {
        exact: scores.iter().filter(|(x, y)| x == y).count(),
        apart: binary.iter().filter(|(x, y)| x != y).count(),
        k6: kappa_of_scores(&scores),
        k2: agreement(&binary).kappa,
    }
}

/// The two passes were made independently; their agreement, on the whole set and on the
/// held-out part, is the agreement `docs/quality.md` reports.
#[test]
fn the_two_rating_passes_agree_as_independent_raters_do() {
    let first = ratings("pass1.tsv");
    let second = ratings("pass2.tsv");
    let labelled = checked();
    println!(
        "| component | part | tools | same 0–5 score | kappa, 0–5 scores | kappa, deficient or not | disagreements |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (c, component) in COMPONENTS.iter().enumerate() {
        for (part, keep) in [("all", None), ("held out", Some(true))] {
            let ids: Vec<&String> = labelled
                .ids
                .iter()
                .zip(&labelled.held_out)
                .filter(|(_, held)| keep.is_none_or(|k| k == **held))
                .map(|(id, _)| id)
                .collect();
            let Compared {
                exact,
                apart,
                k6,
                k2,
            } = compare(c, component, &ids, &first, &second);
            println!(
                "| {} | {part} | {} | {exact} | {k6:.2} | {k2:.2} | {apart} |",
                component.name,
                ids.len()
            );
            // Two readings of the rubric agree well beyond chance on every component; a
            // pass that does not (a shuffled or a made-up one) fails here.
            if keep.is_none() {
                assert!(k2 >= 0.4 && k6 >= 0.3, "{}: {k6} {k2}", component.name);
            }
        }
    }
}

/// The independent pass: a sample of the tuning part rated again from the rubric alone, by a
/// rater who had not seen the first two passes, against the final labels. It measures how
/// far a second reviewer agrees, which the two passes above cannot.
#[test]
fn an_independent_rating_agrees_with_the_labels_as_reviewers_do() {
    let labels = ratings("labels.tsv");
    let independent = ratings("independent.tsv");
    let labelled = checked();
    for id in independent.keys() {
        let i = labelled.ids.iter().position(|x| x == id).unwrap();
        assert!(!labelled.held_out[i], "{id} is held out");
    }
    let ids: Vec<&String> = independent.keys().collect();
    println!("| component | tools | exact | kappa, 0–5 scores | kappa, deficient or not |");
    println!("|---|---|---|---|---|");
    for (c, component) in COMPONENTS.iter().enumerate() {
        let Compared { exact, k6, k2, .. } = compare(c, component, &ids, &independent, &labels);
        println!(
            "| {} | {} | {exact} | {k6:.2} | {k2:.2} |",
            component.name,
            ids.len()
        );
        assert!(k2 >= 0.4, "{}: {k2}", component.name);
    }
}

#[test]
fn the_rules_agree_with_the_labels() {
    let labelled = checked();
    let measured = measure(&labelled);
    println!("| component | part | tools | deficient | flagged | precision | recall | kappa |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, parts) in &measured {
        for (part, a) in [
            "all",
            "tuning",
            "held out",
            "first draw's held-out part (tuning)",
            "second draw (tuning)",
            "third draw (tuning)",
        ]
        .iter()
        .zip(parts)
        {
            println!(
                "| {name} | {part} | {} | {} | {} | {:.2} | {:.2} | {:.2} |",
                a.n, a.positives, a.flagged, a.precision, a.recall, a.kappa
            );
        }
    }
    // The figures `docs/quality.md` reports, on the whole set, against the settled labels: a
    // rule that gets worse on them fails here.
    let floors: [(f64, f64, f64); 6] = [
        (0.78, 0.70, 0.69),
        (0.91, 0.97, 0.86),
        (0.88, 0.90, 0.79),
        (0.89, 0.64, 0.67),
        (0.81, 0.81, 0.75),
        (0.81, 0.51, 0.58),
    ];
    for ((name, parts), (precision, recall, kappa)) in measured.iter().zip(floors) {
        let all = parts[0];
        assert!(
            all.precision >= precision && all.recall >= recall && all.kappa >= kappa,
            "{name}: {all:?}"
        );
    }
}

#[test]
fn the_catalog_score_is_the_mean_of_the_tool_scores() {
    let labelled = checked();
    let quality = &labelled.report.quality;
    let tools = &quality.tools;
    let mean_purpose =
        tools.iter().map(|t| f64::from(t.scores[0])).sum::<f64>() / tools.len() as f64;
    assert!((quality.components()[0] - mean_purpose).abs() < 1e-9);
    assert!(quality.overall() > 0.0 && quality.overall() < 5.0);
}
