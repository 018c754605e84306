//! `toolpact validate`: check tool calls against a catalog, as the dispatch loop would,
//! without running anything.

use crate::Outcome;
use crate::input::{Answering, read_bytes, read_catalog};
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::io::Write;
use toolpact::Outcome as CallOutcome;
use toolpact::{CallError, Checked, DispatchOptions, Registry, ToolCall, parse_call, parse_calls};

/// Arguments of `toolpact validate`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  toolpact validate tools.json --call call.json\n  \
toolpact validate tools.json --tool get_forecast --args '{\"city\": \"Lisbon\", \"days\": 3}'\n  \
toolpact validate tools.json --call response-calls.json --target openai-responses --strict\n\n\
Exit status: 0 every call is valid, 1 some call is not, 2 bad usage or unreadable input."
)]
pub struct Args {
    /// Files with the tool definitions (any format `convert` reads).
    #[arg(required = true, value_name = "CATALOG")]
    catalogs: Vec<String>,
    /// A file with tool calls in any provider's shape (one call, an array, JSON lines, or a
    /// message holding calls); `-` reads standard input.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tool", "args"], required_unless_present = "tool")]
    call: Option<String>,
    /// The tool to call (with --args).
    #[arg(long, value_name = "NAME", requires = "args")]
    tool: Option<String>,
    /// The arguments, as a JSON object (with --tool).
    #[arg(long, value_name = "JSON", requires = "tool")]
    args: Option<String>,
    /// Repair JSON-encoded strings and numeric strings, and report each repair.
    #[arg(long)]
    lenient: bool,
    #[command(flatten)]
    answering: Answering,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

pub fn run(args: Args) -> Result<Outcome> {
    let catalog = read_catalog(&args.catalogs, None)?;
    let registry = Registry::from_catalog(&catalog)?;
    let calls = match (&args.call, &args.tool, &args.args) {
        (Some(file), _, _) => {
            let bytes = read_bytes(file)?;
            let text =
                String::from_utf8(bytes).with_context(|| format!("{file}: not valid UTF-8"))?;
            parse_calls(&text, None).map_err(|e| match e {
                // `FILE:LINE:COLUMN: …`, as convert writes positions.
                CallError::Json { .. } => anyhow::anyhow!("{file}:{e}"),
                // `NotACall`, and any later kind: a message, not a position.
                _ => anyhow::anyhow!("{file}: {e}"),
            })?
        }
        (None, Some(tool), Some(arguments)) => {
            let arguments: Value = serde_json::from_str(arguments)
                .map_err(|e| anyhow::anyhow!("--args is not valid JSON: {e}"))?;
            vec![parse_call(
                &json!({ "name": tool, "arguments": arguments }),
                None,
                "--args",
            )?]
        }
        _ => bail!("give --call FILE, or --tool NAME with --args JSON"),
    };
    let options = DispatchOptions {
        lenient: args.lenient,
        read_back: args.answering.read_back(&registry)?,
        ..DispatchOptions::default()
    };
    let checked: Vec<(ToolCall, Checked)> = calls
        .into_iter()
        .map(|call| {
            let checked = toolpact::check_call(&registry, &call, &options);
            (call, checked)
        })
        .collect();
    let mut stdout = std::io::stdout().lock();
    match args.format {
        OutputFormat::Text => write_text(&mut stdout, &checked)?,
        OutputFormat::Json => {
            let items: Vec<Value> = checked.iter().map(|(call, c)| to_json(call, c)).collect();
            let value = if items.len() == 1 {
                items.into_iter().next().unwrap_or_default()
            } else {
                Value::Array(items)
            };
            writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
        }
    }
    let all_valid = checked.iter().all(|(_, c)| c.outcome == CallOutcome::Ok);
    Ok(if all_valid {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

fn write_text(out: &mut impl Write, checked: &[(ToolCall, Checked)]) -> Result<()> {
    let several = checked.len() > 1;
    for (i, (call, c)) in checked.iter().enumerate() {
        let prefix = if several {
            let id = call
                .id
                .as_deref()
                .map_or_else(String::new, |id| format!(" {id}"));
            format!("call {}{id} ({}): ", i + 1, call.name)
        } else {
            String::new()
        };
        for step in &c.read_back {
            match &step.to {
                Some(to) => writeln!(
                    out,
                    "{prefix}{}: read back: {} → {to} ({})",
                    step.pointer, step.from, step.why
                )?,
                None => writeln!(
                    out,
                    "{prefix}{}: read back: {} → left out ({})",
                    step.pointer, step.from, step.why
                )?,
            }
        }
        for repair in &c.repairs {
            writeln!(
                out,
                "{prefix}{}: repaired: {} → {}",
                repair.pointer, repair.from, repair.to
            )?;
        }
        match &c.outcome {
            CallOutcome::Ok => writeln!(out, "{prefix}valid")?,
            CallOutcome::InvalidArguments { errors } => {
                for e in &errors.errors {
                    writeln!(
                        out,
                        "{prefix}{}: {}: {}",
                        display(&e.pointer),
                        e.kind.as_str(),
                        e.message
                    )?;
                }
            }
            CallOutcome::UnknownTool { .. } => writeln!(
                out,
                "{prefix}unknown-tool: {}",
                c.message.as_deref().unwrap_or_default()
            )?,
            CallOutcome::MalformedArguments => writeln!(
                out,
                "{prefix}malformed-arguments: {}",
                c.message.as_deref().unwrap_or_default()
            )?,
            other => writeln!(out, "{prefix}{other:?}")?,
        }
    }
    Ok(())
}

fn display(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

fn to_json(call: &ToolCall, c: &Checked) -> Value {
    // The outcome's own serialization carries its data ("errors", "suggestions") beside a
    // kebab-case "outcome" tag; the report adds who was called and whether it is valid.
    let mut value = json!({
        "tool": c.tool,
        "name": call.name,
        "call_id": call.id,
        "format": call.format,
        "valid": c.outcome == CallOutcome::Ok,
    });
    if let (Value::Object(map), Ok(Value::Object(outcome))) =
        (&mut value, serde_json::to_value(&c.outcome))
    {
        map.extend(outcome);
    }
    value["repairs"] = json!(c.repairs);
    if !c.read_back.is_empty() {
        value["read_back"] = json!(c.read_back);
        if let Some(arguments) = &c.arguments {
            value["arguments"] = arguments.clone();
        }
    }
    if let Some(message) = &c.message {
        value["message"] = json!(message);
    }
    value
}
