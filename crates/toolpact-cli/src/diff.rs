//! `toolpact diff`: every change between two versions of a set of tools, grouped by class.

use crate::Outcome;
use crate::live::{LiveArgs, fetch_live};
use crate::lock::read_contracts;
use anyhow::{Result, bail};
use serde_json::json;
use std::io::Write;
use toolpact::{ChangeClass, Diff};

/// Arguments of `toolpact diff`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Classes: breaking (callers or clients may fail), behaviour (annotations, _meta, \
defaults), description (text the model reads, with a word diff), compatible.\n\nExit status: 0 \
no change reaches --fail-on, 1 some change does, 2 the comparison could not run."
)]
pub struct Args {
    /// The old version: a lock file, or tool definitions in any format `convert` reads; `-`
    /// reads standard input.
    #[arg(value_name = "OLD")]
    old: String,
    /// The new version, in the same forms; leave it out to compare with a live server
    /// (`--url URL` or `-- COMMAND…`).
    #[arg(value_name = "NEW", required_unless_present_any = ["url", "command"])]
    new: Option<String>,
    /// A live MCP server as the new version.
    #[command(flatten)]
    live: LiveArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
    /// The least serious class of change that makes the exit status 1 (`behaviour` includes
    /// breaking changes; `any` includes descriptions and compatible changes).
    #[arg(long, value_enum, default_value = "breaking")]
    fail_on: FailOn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Breaking,
    Behaviour,
    Any,
    Never,
}

pub fn run(args: Args) -> Result<Outcome> {
    if args.old == "-" && args.new.as_deref() == Some("-") {
        bail!("only one side of the comparison can be standard input (`-`)");
    }
    if args.new.is_some() && args.live.is_given() {
        bail!(
            "give the new version either as NEW or as a live server (--url or -- COMMAND), not both"
        );
    }
    let old = read_contracts(&args.old)?;
    let new_tools = match &args.new {
        Some(new) => read_contracts(new)?.tools,
        None => match fetch_live(&args.live)? {
            Some(fetched) => fetched.catalog()?.tools().cloned().collect(),
            None => bail!("give the new version: a file (NEW), --url URL, or -- COMMAND"),
        },
    };
    let diff = toolpact::diff(&old.tools, &new_tools);
    let text = match args.format {
        FormatArg::Text => render_text(&diff),
        FormatArg::Json => {
            let mut text = serde_json::to_string_pretty(&to_json(&diff))?;
            text.push('\n');
            text
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    let threshold = match args.fail_on {
        FailOn::Breaking => Some(ChangeClass::Breaking),
        FailOn::Behaviour => Some(ChangeClass::Behaviour),
        FailOn::Any => Some(ChangeClass::Compatible),
        FailOn::Never => None,
    };
    Ok(Outcome::failing_at(threshold, diff.max_class()))
}

/// The changes grouped by class, most serious first; each change on one line (tool, pointer,
/// message), a text change followed by its word diff.
fn render_text(diff: &Diff) -> String {
    let mut out = String::new();
    for class in ChangeClass::ALL {
        let changes: Vec<_> = diff.changes.iter().filter(|c| c.class == class).collect();
        if changes.is_empty() {
            continue;
        }
        out.push_str(&format!("{class} ({})\n", changes.len()));
        for change in changes {
            let pointer = if change.pointer.is_empty() {
                String::new()
            } else {
                format!(" {}", change.pointer)
            };
            let security = if change.security { "[security] " } else { "" };
            out.push_str(&format!(
                "  {}{pointer}: {security}{}\n",
                change.tool, change.message
            ));
            if let Some(text) = &change.text {
                out.push_str(&format!("      {}\n", text.render()));
            }
        }
        out.push('\n');
    }
    out.push_str(&summary_line(diff));
    out.push('\n');
    out
}

fn summary_line(diff: &Diff) -> String {
    if diff.is_empty() {
        return "no changes".to_owned();
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let counts: Vec<String> = ChangeClass::ALL
        .iter()
        .map(|&class| format!("{} {class}", diff.count(class)))
        .collect();
    format!(
        "{} to {}: {}",
        plural(diff.changes.len(), "change"),
        plural(diff.changed_tools().len(), "tool"),
        counts.join(", ")
    )
}

fn to_json(diff: &Diff) -> serde_json::Value {
    json!({
        "changes": diff.changes,
        "summary": {
            "changes": diff.changes.len(),
            "tools": diff.changed_tools().len(),
            "breaking": diff.count(ChangeClass::Breaking),
            "behaviour": diff.count(ChangeClass::Behaviour),
            "description": diff.count(ChangeClass::Description),
            "compatible": diff.count(ChangeClass::Compatible),
        },
    })
}
