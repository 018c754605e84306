//! toolpact-lint: what makes models misuse tools, what providers and clients reject, what
//! costs too much, and what looks like an attack — found before a model ever sees the tools.
//!
//! Each rule lives in its own file under `rules/<category>/`, declares its code, name,
//! category, default severity and documentation, and reports [`Violation`]s. [`check`] runs
//! the enabled rules over a catalog and returns [`Finding`]s with the file, line and JSON
//! pointer of each; [`check_locked`] adds the changes from a lock file (TP590); [`render`]
//! writes them as text, JSON, SARIF or GitHub annotations, and [`write_report`] writes them
//! out as they are made.
//!
//! The modules, bottom to top: `meta` (what a rule is, apart from its check); `finding`
//! (what a check returns) with `engine::sort` (their order) and `quality` (the score it reports); `analysis` (what rules read of
//! tools: words, phrases, texts, names, schema walks, identifiers, token counts);
//! `engine::blocks` and `engine::scratch` (the exports lowered block by block, and what one
//! worker keeps for the rules); `context` (what a rule sees); `rule` (the traits rules
//! implement); `rules` (one file per rule, and the registry of codes); `contract_changed`
//! (TP590, below the registry); `settings`; `engine` (plan, scheduler, the check itself);
//! `report`. A rule imports no other rule, and no module imports one above it.

#![deny(missing_docs)]

mod analysis;
mod context;
mod contract_changed;
mod engine;
mod finding;
mod meta;
mod quality;
mod report;
mod rule;
mod rules;
mod settings;

pub use analysis::poison::{Detection, Technique, scan_text, scan_value};
pub use context::{Context, RuleSettings, ToolView};
pub use contract_changed::{CONTRACT_CHANGED, check_locked};
pub use engine::blocks::{Block, BlockExport, Sent, export_label};
pub use engine::timings::{Timing, Timings};
pub use engine::{check, check_timed};
pub use finding::{Finding, Report, Summary, Violation};
pub use meta::{Category, RuleMeta, RuleOption, Severity};
pub use quality::{COMPONENTS, Quality, ToolQuality, rounded};
pub use report::{OutputFormat, Sources, render, write_report};
pub use rule::{ChecksTools, Part, ReadsExports, Rule};
pub use rules::{OTHER_FINDINGS, all_rules, find_meta, find_rule};
pub use settings::{Settings, SettingsError};
