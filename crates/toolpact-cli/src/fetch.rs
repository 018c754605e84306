//! `toolpact fetch`: the tools of a live MCP server, written as a `tools/list` result.

use crate::Outcome;
use crate::live::{LiveArgs, fetch_live};
use anyhow::{Context, Result, bail};
use std::io::Write;

/// Arguments of `toolpact fetch`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  toolpact fetch -- npx -y @modelcontextprotocol/server-everything\n  \
toolpact fetch --url http://127.0.0.1:8000/mcp --bearer-env MCP_TOKEN -o tools.json\n\n\
Exit status: 0 the tools were written, 2 the server could not be read."
)]
pub struct Args {
    #[command(flatten)]
    live: LiveArgs,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
}

/// Reads the server's tools and writes them.
pub fn run(args: Args) -> Result<Outcome> {
    let Some(fetched) = fetch_live(&args.live)? else {
        bail!("give a server to read: `-- COMMAND ARGS…` for a stdio server, or --url URL");
    };
    if let Some(server) = &fetched.server {
        eprintln!(
            "{}: {} tools from {server}",
            fetched.origin,
            fetched.tools.len()
        );
    }
    let text = fetched.to_text();
    match args.output.as_deref() {
        Some(path) if path != "-" => {
            std::fs::write(path, text).with_context(|| format!("cannot write {path}"))?;
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .context("cannot write to standard output")?;
        }
    }
    Ok(Outcome::Clean)
}
