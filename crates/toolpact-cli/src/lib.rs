//! The `toolpact` command line as a library, so that the binary and other hosts (the Python
//! package) run the same command: LLM tool contracts converted to every provider's format,
//! calls validated, definitions linted, served and checked over MCP, and pinned in a lock file.

mod check;
mod convert;
mod diff;
mod fetch;
mod input;
mod live;
mod lock;
mod output;
mod proxy;
mod request;
mod serve;
mod validate;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

/// LLM tool contracts: define once, export to MCP, OpenAI, Anthropic and Gemini, and see
/// exactly what each provider cannot express.
#[derive(Debug, Parser)]
#[command(name = "toolpact", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert tool definitions to a provider's format, with a loss report.
    Convert(convert::Args),
    /// Check tool calls against tool definitions, with errors a model can act on.
    Validate(validate::Args),
    /// Lint tool definitions: what models misuse, providers reject, costs too much, or attacks.
    Check(check::Args),
    /// List the lint rules.
    Rules,
    /// Print one lint rule's documentation.
    Rule {
        /// The rule's code (TP001) or name (invalid-name).
        rule: String,
    },
    /// Pin every tool's whole contract (schemas, descriptions, annotations) in a lock file.
    Lock(lock::Args),
    /// Compare two versions of tool definitions: breaking, behaviour, description changes.
    Diff(diff::Args),
    /// Serve the tools of catalog files over MCP (stdio or HTTP), validating every call.
    Serve(serve::Args),
    /// Read the tools of a live MCP server (`-- COMMAND…` or --url) as a tools/list result.
    Fetch(fetch::Args),
    /// Build a provider's whole request body from tools, a system prompt and a conversation.
    Request(request::Args),
    /// Put any MCP server (`-- COMMAND…` or --url) behind a gate that pins, lints, validates
    /// every call and scans every result.
    Proxy(proxy::Args),
}

/// How a command ended, mapped to the exit code: 0 clean, 1 findings or tools left out,
/// 2 could not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything done.
    Clean,
    /// Done, but with something the user must look at (tools left out, findings).
    Findings,
}

impl Outcome {
    /// `Findings` when the most serious thing found (`worst`) reaches `threshold` (`--fail-on`;
    /// `None` is `never`), else `Clean`.
    pub fn failing_at<T: Ord>(threshold: Option<T>, worst: Option<T>) -> Outcome {
        match (threshold, worst) {
            (Some(threshold), Some(worst)) if worst >= threshold => Outcome::Findings,
            _ => Outcome::Clean,
        }
    }
}

/// Runs the `toolpact` command line on `args` (the first is the program's name, as in
/// `std::env::args_os`) and returns the exit code: 0 clean, 1 findings or tools left out, 2 could
/// not run. Help, version and usage errors are printed as the command prints them.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            // `--help` and `--version` end here too, with exit code 0.
            let _ = error.print();
            return if error.use_stderr() { 2 } else { 0 };
        }
    };
    let result = match cli.command {
        Command::Convert(args) => convert::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Check(args) => check::run(args),
        Command::Rules => check::list(),
        Command::Rule { rule } => check::show(&rule),
        Command::Lock(args) => lock::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Fetch(args) => fetch::run(args),
        Command::Request(args) => request::run(args),
        Command::Proxy(args) => proxy::run(args),
    };
    match result {
        Ok(Outcome::Clean) => 0,
        Ok(Outcome::Findings) => 1,
        Err(error) => {
            if output::is_broken_pipe(&error) {
                return 0;
            }
            eprintln!("error: {error:#}");
            2
        }
    }
}
