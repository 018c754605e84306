//! `toolpact convert`: tool definitions in, one provider's payload out, losses on stderr.

use crate::Outcome;
use crate::input::read_catalog;
use crate::output::write_json;
use anyhow::Result;
use clap::builder::TypedValueParser;
use serde_json::{Value, json};
use std::io::Write;
use toolpact::{Catalog, Export, ExportOptions, Origin, Target};

/// Arguments of `toolpact convert`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 every tool converted (losses are reported, not fatal), \
1 some tool could not be represented and was left out, 2 bad usage or unreadable input."
)]
pub struct Args {
    /// Files with tool definitions (an MCP tools/list result, a provider's tools array or
    /// request body); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// The format to write.
    #[arg(long, value_enum, value_name = "TARGET")]
    to: Target,
    /// Lower to the provider's strict subset (openai-responses, openai-chat, anthropic).
    #[arg(long)]
    strict: bool,
    /// Read the files as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = input_format())]
    from: Option<Target>,
    /// Write the payload here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// How to print the loss report on standard error.
    #[arg(long, value_enum, default_value = "text")]
    report: ReportFormat,
}

/// The targets whose tools `--from` reads: one per input format (Gemini JSON is read as Gemini).
fn input_format() -> impl TypedValueParser<Value = Target> {
    clap::builder::PossibleValuesParser::new(Target::input_formats().map(Target::as_str))
        .try_map(|name| name.parse::<Target>())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ReportFormat {
    Text,
    Json,
}

pub fn run(args: Args) -> Result<Outcome> {
    let target = args.to;
    let catalog = read_catalog(&args.files, args.from)?;
    let export = toolpact::export(
        catalog.tools(),
        target,
        ExportOptions {
            strict: args.strict,
        },
    )?;
    write_json(&export.payload, args.output.as_deref())?;
    let report = Report {
        catalog: &catalog,
        export: &export,
        strict: args.strict,
    };
    let mut stderr = std::io::stderr().lock();
    match args.report {
        ReportFormat::Text => report.write_text(&mut stderr)?,
        ReportFormat::Json => {
            let mut text = serde_json::to_string_pretty(&report.to_json())?;
            text.push('\n');
            stderr.write_all(text.as_bytes())?;
        }
    }
    Ok(if export.report.left_out.is_empty() {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

struct Report<'a> {
    catalog: &'a Catalog,
    export: &'a Export,
    strict: bool,
}

impl Report<'_> {
    fn origin(&self, index: usize) -> Option<&Origin> {
        self.catalog.entries.get(index).map(|e| &e.origin)
    }

    fn write_text(&self, out: &mut impl Write) -> Result<()> {
        let at = |index: usize| {
            self.origin(index)
                .map_or_else(String::new, |o| format!("{o}: "))
        };
        for note in &self.catalog.notes {
            let tool = note
                .tool
                .as_deref()
                .map_or_else(String::new, |t| format!("{t} "));
            writeln!(
                out,
                "{}: {tool}{}: note: {}",
                note.origin, note.origin.pointer, note.message
            )?;
        }
        for loss in &self.export.report.losses {
            writeln!(
                out,
                "{}{} {}: {}: {}",
                at(loss.index),
                loss.tool,
                loss.pointer,
                loss.kind,
                loss.message
            )?;
        }
        for left in &self.export.report.left_out {
            let pointer = if left.pointer.is_empty() {
                String::new()
            } else {
                format!(" {}", left.pointer)
            };
            writeln!(
                out,
                "{}{}{pointer}: left out: {}",
                at(left.index),
                left.tool,
                left.reason
            )?;
        }
        let total = self.catalog.len();
        let converted = self.export.names.len();
        let lossy = {
            let mut tools: Vec<usize> = self.export.report.losses.iter().map(|l| l.index).collect();
            tools.dedup();
            tools.len()
        };
        let mode = if self.strict { " (strict)" } else { "" };
        writeln!(
            out,
            "{}: {converted} of {total} tools converted{mode}, {lossy} with losses, {} left out",
            self.export.target,
            self.export.report.left_out.len()
        )?;
        Ok(())
    }

    fn to_json(&self) -> Value {
        let origin = |index: usize| self.origin(index).map(|o| json!(o));
        json!({
            "target": self.export.target,
            "strict": self.strict,
            "tools": self.catalog.len(),
            "converted": self.export.names.len(),
            "renamed": self.export.names.renamed()
                .map(|(exported, original)| json!({ "original": original, "exported": exported }))
                .collect::<Vec<_>>(),
            "losses": self.export.report.losses.iter().map(|l| json!({
                "tool": l.tool, "pointer": l.pointer, "kind": l.kind, "message": l.message, "origin": origin(l.index),
            })).collect::<Vec<_>>(),
            "left_out": self.export.report.left_out.iter().map(|u| json!({
                "tool": u.tool, "pointer": u.pointer, "reason": u.reason, "origin": origin(u.index),
            })).collect::<Vec<_>>(),
            "notes": self.catalog.notes,
        })
    }
}
