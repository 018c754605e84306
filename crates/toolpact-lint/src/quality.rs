//! The quality score a check reports: each tool's description rated 0–5 on the six
//! components of `docs/quality-rubric.md` (purpose, usage guidelines, limitations, parameter
//! explanation, length, examples) and overall, and the catalog's means, so that a project can
//! track them in CI (`toolpact check --fail-under`).

use serde::Serialize;

/// The names of the six components, in the rubric's order.
pub const COMPONENTS: [&str; 6] = [
    "purpose",
    "usage",
    "limitations",
    "parameters",
    "length",
    "examples",
];

/// One tool's scores.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ToolQuality {
    /// The tool's name.
    pub tool: String,
    /// The tool's position in the catalog.
    #[serde(skip)]
    pub index: usize,
    /// Each component's score, 0–5, in the order of [`COMPONENTS`].
    pub scores: [u8; 6],
}

impl ToolQuality {
    /// The mean of the six scores, 0–5.
    pub fn overall(&self) -> f64 {
        mean(self.scores.iter().map(|&s| f64::from(s)))
    }
}

/// The scores of every tool of a check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Quality {
    /// Each tool's scores, in catalog order.
    pub tools: Vec<ToolQuality>,
}

impl Quality {
    /// Each component's mean over the catalog, in the order of [`COMPONENTS`]; 0 for an
    /// empty catalog.
    pub fn components(&self) -> [f64; 6] {
        let mut sums = [0u64; 6];
        for tool in &self.tools {
            for (sum, &score) in sums.iter_mut().zip(&tool.scores) {
                *sum += u64::from(score);
            }
        }
        let n = self.tools.len().max(1) as f64;
        sums.map(|sum| sum as f64 / n)
    }

    /// The catalog's overall score: the mean of its component means, 0–5.
    pub fn overall(&self) -> f64 {
        mean(self.components().into_iter())
    }
}

/// The mean of some scores.
fn mean(scores: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = scores.fold((0.0, 0u32), |(sum, n), s| (sum + s, n + 1));
    if n == 0 { 0.0 } else { sum / f64::from(n) }
}

/// A score rounded to one decimal, as reports write it.
pub fn rounded(score: f64) -> f64 {
    (score * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_scores_are_means_of_tool_scores() {
        let quality = Quality {
            tools: vec![
                ToolQuality {
                    tool: "a".to_owned(),
                    index: 0,
                    scores: [5, 0, 0, 5, 4, 5],
                },
                ToolQuality {
                    tool: "b".to_owned(),
                    index: 1,
                    scores: [3, 2, 2, 3, 2, 5],
                },
            ],
        };
        assert_eq!(quality.components(), [4.0, 1.0, 1.0, 4.0, 3.0, 5.0]);
        assert!((quality.overall() - 3.0).abs() < 1e-9);
        assert!((quality.tools[0].overall() - 19.0 / 6.0).abs() < 1e-9);
        assert_eq!(rounded(19.0 / 6.0), 3.2);
        assert_eq!(Quality::default().overall(), 0.0);
    }
}
