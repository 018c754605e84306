//! `toolpact request`: the whole request body one provider expects, from tool definitions, a
//! system prompt and the conversation so far in the neutral form (`docs/conversation.md`).
//! The body goes to standard output; what the provider cannot take as it is goes to standard
//! error, as `convert` reports it.

use crate::Outcome;
use crate::input::{read_bytes, read_catalog};
use crate::output::write_json;
use anyhow::{Context, Result, bail};
use clap::builder::TypedValueParser;
use std::io::Write;
use toolpact::{
    Catalog, Conversation, Request, RequestError, RequestOptions, Target, ToolChoice,
    build_request, parse_messages,
};

/// Arguments of `toolpact request`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
toolpact request tools.json --to anthropic --system system.md --messages messages.json --model claude-sonnet-4-5 --max-tokens 1024\n  \
toolpact request tools.json --to gemini --messages messages.json --tool-choice allowed:suggest_gifts\n\n\
The messages file is a JSON array of {\"role\": \"user\" | \"assistant\" | \"tool\", …} messages \
(docs/conversation.md).\n\n\
Exit status: 0 the request was built, 1 it was built but some tool could not be represented and \
was left out, 2 bad usage, unreadable input, or a setting the provider cannot express.")]
pub struct Args {
    /// Files with the tool definitions (any format `convert` reads); `-` reads standard input.
    #[arg(required = true, value_name = "CATALOG")]
    catalogs: Vec<String>,
    /// The provider to build the request for.
    #[arg(long, value_name = "TARGET", value_parser = model_api())]
    to: Target,
    /// A text file with the system prompt (trailing whitespace is dropped).
    #[arg(long, value_name = "FILE")]
    system: Option<String>,
    /// A JSON file with the conversation so far: an array of messages, or
    /// {"system": "…", "messages": [...]}.
    #[arg(long, value_name = "FILE")]
    messages: String,
    /// Which tools the model may or must call: auto, none, required, tool:NAME, allowed:A,B
    /// (only these) or required:A,B (one of these).
    #[arg(long, value_name = "CHOICE", default_value = "auto", value_parser = parse_choice)]
    tool_choice: ToolChoice,
    /// Export the tools in the provider's strict subset (openai-responses, openai-chat,
    /// anthropic).
    #[arg(long)]
    strict: bool,
    /// The model (required by openai-chat and anthropic; Gemini takes it in the URL).
    #[arg(long, value_name = "MODEL")]
    model: Option<String>,
    /// The most tokens the answer may use (required by anthropic).
    #[arg(long, value_name = "N")]
    max_tokens: Option<u32>,
    /// Ask for at most one tool call per turn (OpenAI parallel_tool_calls: false, Anthropic
    /// disable_parallel_tool_use).
    #[arg(long)]
    no_parallel: bool,
    /// Write the body here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
}

fn parse_choice(text: &str) -> Result<ToolChoice, String> {
    text.parse()
        .map_err(|e: toolpact::InvalidToolChoice| e.to_string())
}

/// The targets a request is built for: every model API (not MCP).
fn model_api() -> impl TypedValueParser<Value = Target> {
    clap::builder::PossibleValuesParser::new(
        Target::ALL
            .into_iter()
            .filter(|t| t.is_model_api())
            .map(Target::as_str),
    )
    .try_map(|name| name.parse::<Target>())
}

pub fn run(args: Args) -> Result<Outcome> {
    let target = args.to;
    let catalog = read_catalog(&args.catalogs, None)?;
    let (conversation, base) = read_conversation(args.system.as_deref(), &args.messages)?;
    let options = RequestOptions {
        model: args.model,
        max_tokens: args.max_tokens,
        strict: args.strict,
        tool_choice: args.tool_choice,
        parallel_tool_calls: args.no_parallel.then_some(false),
    };
    let request =
        build_request(catalog.tools(), target, &conversation, &options).map_err(|error| {
            match &error {
                RequestError::MissingOption { option, .. } => {
                    let flag = if *option == "model" {
                        "--model"
                    } else {
                        "--max-tokens"
                    };
                    anyhow::anyhow!("{error}; give it with {flag}")
                }
                RequestError::Conversation(_) => {
                    let text = error.to_string();
                    let base = if text.starts_with('/') { base } else { "" };
                    anyhow::anyhow!("{}: {base}{text}", args.messages)
                }
                _ => anyhow::Error::new(error),
            }
        })?;
    write_json(&request.body, args.output.as_deref())?;
    write_report(
        &mut std::io::stderr().lock(),
        &catalog,
        &request,
        &args.messages,
        conversation.messages.len(),
        base,
    )?;
    Ok(if request.report.left_out.is_empty() {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

/// The conversation from the messages file, with the system prompt from `--system` or from
/// the file (not both), and the pointer of the messages in the file (`/messages` when the
/// file is an object), which the library's pointers into the messages are relative to.
fn read_conversation(system: Option<&str>, messages: &str) -> Result<(Conversation, &'static str)> {
    if system == Some("-") && messages == "-" {
        bail!(
            "--system and --messages cannot both read standard input; give one of them as a file"
        );
    }
    let bytes = read_bytes(messages)?;
    let text = String::from_utf8(bytes).with_context(|| format!("{messages}: not valid UTF-8"))?;
    let (embedded, list) =
        parse_messages(&text).map_err(|e| anyhow::anyhow!("{messages}:{}", with_space(&e)))?;
    let system = match (system, embedded) {
        (Some(file), None) => {
            let bytes = read_bytes(file)?;
            let text =
                String::from_utf8(bytes).with_context(|| format!("{file}: not valid UTF-8"))?;
            Some(text.trim_end().to_owned())
        }
        (None, embedded) => embedded,
        (Some(file), Some(_)) => bail!(
            "the system prompt is given twice: in {file} (--system) and in {messages}; keep one"
        ),
    };
    let base = if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
    {
        "/messages"
    } else {
        ""
    };
    Ok((
        Conversation {
            system,
            messages: list,
        },
        base,
    ))
}

/// `LINE:COLUMN: …` right after the file name, other messages after a space.
fn with_space(error: &toolpact::MessagesError) -> String {
    match error {
        toolpact::MessagesError::Json { .. } => error.to_string(),
        // `Shape`, and any later kind: a message, not a position.
        _ => format!(" {error}"),
    }
}

fn write_report(
    out: &mut impl Write,
    catalog: &Catalog,
    request: &Request,
    messages_file: &str,
    messages: usize,
    base: &str,
) -> Result<()> {
    let at = |index: usize| {
        catalog
            .entries
            .get(index)
            .map_or_else(String::new, |e| format!("{}: ", e.origin))
    };
    for loss in &request.report.losses {
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
    for left in &request.report.left_out {
        writeln!(out, "{}{left}: left out", at(left.index))?;
    }
    for loss in &request.losses {
        writeln!(out, "{messages_file}: {base}{loss}")?;
    }
    let tools = request.names.len();
    let mut lossy: Vec<usize> = request.report.losses.iter().map(|l| l.index).collect();
    lossy.dedup();
    let losses = request.losses.len();
    writeln!(
        out,
        "{}: request with {tools} of {} tools, {} with losses, {} left out; {messages} {}, {losses} {} in the conversation",
        request.target,
        catalog.len(),
        lossy.len(),
        request.report.left_out.len(),
        if messages == 1 { "message" } else { "messages" },
        if losses == 1 { "loss" } else { "losses" },
    )?;
    Ok(())
}
