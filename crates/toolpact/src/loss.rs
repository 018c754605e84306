//! The loss report: everything a target could not express, and where.

use serde::Serialize;
use std::fmt;
use std::hash::{BuildHasher, Hash};

/// What happened to a keyword or field on the way to a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum LossKind {
    /// Removed: the target has no place for it.
    Dropped,
    /// Replaced by an equivalent or weaker construct the target accepts.
    Rewritten,
    /// A `$ref` replaced by the schema it points to.
    Inlined,
    /// Removed from the schema and written into the `description`, so the model still reads it.
    MovedToDescription,
    /// The tool's name was changed to one the target accepts.
    Renamed,
    /// Kept as it is, but the target is known to reject or ignore it.
    Kept,
    /// Rewritten so that the model can send less than the schema as written allows (an
    /// object with free-form keys closed): calls that need the rest cannot be made through
    /// the target, and no reading back brings it back.
    Narrowed,
}

impl LossKind {
    /// The word used in text reports.
    pub fn as_str(self) -> &'static str {
        match self {
            LossKind::Dropped => "dropped",
            LossKind::Rewritten => "rewritten",
            LossKind::Inlined => "inlined",
            LossKind::MovedToDescription => "moved to description",
            LossKind::Renamed => "renamed",
            LossKind::Kept => "kept, at risk",
            LossKind::Narrowed => "narrowed",
        }
    }
}

impl fmt::Display for LossKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One loss: which tool, where in it (a JSON pointer into the tool as it was given), what
/// happened, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// The tool's original name.
    pub tool: String,
    /// The tool's position in the list given to the export, from 0 (names may repeat).
    pub index: usize,
    /// JSON pointer into the original tool, such as `/inputSchema/properties/days/minimum`.
    pub pointer: String,
    /// What happened.
    pub kind: LossKind,
    /// One sentence: what the target does instead, and why.
    pub message: String,
}

/// A tool the target cannot represent at all; it is left out of the payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unrepresentable {
    /// The tool's original name.
    pub tool: String,
    /// The tool's position in the list given to the export, from 0 (names may repeat).
    pub index: usize,
    /// JSON pointer into the original tool where the problem is.
    pub pointer: String,
    /// Why the target cannot take it.
    pub reason: String,
}

impl fmt::Display for Unrepresentable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.tool, self.reason)
        } else {
            write!(f, "{} at {}: {}", self.tool, self.pointer, self.reason)
        }
    }
}

/// Every loss of one export, in the order the tools were given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LossReport {
    /// Keywords and fields dropped, rewritten, inlined or moved, tool by tool.
    pub losses: Vec<Loss>,
    /// Tools left out of the payload.
    pub left_out: Vec<Unrepresentable>,
}

impl LossReport {
    /// True when every tool was exported exactly as given.
    pub fn is_lossless(&self) -> bool {
        self.losses.is_empty() && self.left_out.is_empty()
    }

    /// The losses of one tool, by its original name.
    pub fn for_tool<'a>(&'a self, tool: &'a str) -> impl Iterator<Item = &'a Loss> + 'a {
        self.losses.iter().filter(move |l| l.tool == tool)
    }
}

/// Collects the losses of one tool while it is lowered. A keyword reached twice (a `$ref`
/// inlined in several places) is reported once.
#[derive(Debug)]
pub(crate) struct LossLog<'a> {
    tool: &'a str,
    index: usize,
    losses: Vec<Loss>,
    /// The hashes of the losses logged, once there are more than a short scan reads: a
    /// schema whose references are inlined thousands of times logs thousands of losses, and
    /// each new one is looked up rather than compared with all.
    seen: foldhash::HashSet<u64>,
}

/// Up to this many losses, a new one is compared with each; past it, looked up by hash.
const SCANNED: usize = 32;

fn loss_hash(pointer: &str, kind: LossKind, message: &str) -> u64 {
    // A fixed seed: the hashes only compare losses of one log.
    foldhash::fast::FixedState::default().hash_one((pointer, kind, message))
}

impl<'a> LossLog<'a> {
    pub(crate) fn new(tool: &'a str, index: usize) -> Self {
        LossLog {
            tool,
            index,
            losses: Vec::new(),
            seen: foldhash::HashSet::default(),
        }
    }

    /// A log that already holds `loss` (the rewrite of the tool's name, made before).
    pub(crate) fn starting_with(tool: &'a str, index: usize, loss: Option<Loss>) -> Self {
        LossLog {
            tool,
            index,
            losses: loss.into_iter().collect(),
            seen: foldhash::HashSet::default(),
        }
    }

    pub(crate) fn push(&mut self, pointer: &str, kind: LossKind, message: impl Into<String>) {
        let message = message.into();
        let same = |l: &Loss| l.pointer == pointer && l.kind == kind && l.message == message;
        if self.losses.len() < SCANNED {
            if self.losses.iter().any(same) {
                return;
            }
        } else {
            if self.seen.is_empty() {
                for l in &self.losses {
                    self.seen.insert(loss_hash(&l.pointer, l.kind, &l.message));
                }
            }
            // A hash seen before is compared in full: equal hashes of different losses keep
            // both.
            if !self.seen.insert(loss_hash(pointer, kind, &message)) && self.losses.iter().any(same)
            {
                return;
            }
        }
        self.losses.push(Loss {
            tool: self.tool.to_owned(),
            index: self.index,
            pointer: pointer.to_owned(),
            kind,
            message,
        });
    }

    pub(crate) fn unrepresentable(
        &self,
        pointer: &str,
        reason: impl Into<String>,
    ) -> Unrepresentable {
        Unrepresentable {
            tool: self.tool.to_owned(),
            index: self.index,
            pointer: pointer.to_owned(),
            reason: reason.into(),
        }
    }

    pub(crate) fn into_losses(self) -> Vec<Loss> {
        self.losses
    }
}
