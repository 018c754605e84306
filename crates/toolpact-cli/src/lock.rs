//! `toolpact lock`: pin the whole contract of every tool in a lock file, and the one way the
//! commands that compare contracts read their sources.

use crate::Outcome;
use crate::input::read_bytes;
use crate::live::{LiveArgs, fetch_live};
use anyhow::{Context, Result};
use std::io::Write;
use toolpact::{Catalog, ImportNote, LockFile, Tool};
use toolpact::{LOCK_KEY, is_lock_document};

/// Arguments of `toolpact lock`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The lock file holds each tool's canonical contract (name, title, descriptions, \
input and output schemas, annotations, _meta, icons) and its SHA-256. Compare with \
`toolpact diff toolpact.lock FILE` or `toolpact check FILE --locked`.\n\nExit status: 0 the \
lock file was written (with --check: it is up to date), 1 with --check: it is missing or \
stale, 2 it could not be written (unreadable input, two tools with one name)."
)]
pub struct Args {
    /// Files with tool definitions (any format `convert` reads, or a lock file); `-` reads
    /// standard input.
    #[arg(required_unless_present_any = ["url", "command"], value_name = "FILE")]
    files: Vec<String>,
    /// Where to write the lock file; `-` writes it to standard output.
    #[arg(short, long, value_name = "FILE", default_value = "toolpact.lock")]
    output: String,
    /// Write nothing: exit with status 1 when the lock file at --output is missing or is not
    /// exactly what this command would write (for pre-commit hooks and CI).
    #[arg(long)]
    check: bool,
    /// A live MCP server whose tools to lock, instead of or besides files.
    #[command(flatten)]
    live: LiveArgs,
}

/// The tools one source holds, as read.
#[derive(Debug)]
pub struct Contracts {
    /// The tools, in the order they were read.
    pub tools: Vec<Tool>,
    /// What reading a catalog did not keep (built-in tools skipped, provider-only fields).
    pub notes: Vec<ImportNote>,
}

/// Reads one source of tools: a lock file (told apart by its content) or tool definitions in
/// any format `convert` reads; `-` is standard input. Every command that compares contracts
/// reads its sources through here, so another kind of source is one more branch.
pub fn read_contracts(file: &str) -> Result<Contracts> {
    let bytes = read_bytes(file)?;
    if let Some(text) = lock_text(&bytes) {
        let lock = LockFile::from_str_named(text, file)?;
        return Ok(Contracts {
            tools: lock.tools().cloned().collect(),
            notes: Vec::new(),
        });
    }
    let catalog = Catalog::from_slice(&bytes, file, None)?;
    Ok(Contracts {
        tools: catalog.tools().cloned().collect(),
        notes: catalog.notes,
    })
}

/// The text of a lock file, or `None` when the bytes are something else (a catalog, or not
/// JSON at all, which the catalog reader then reports).
pub fn lock_text(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    // Only a document that mentions the marker is parsed twice.
    if !text.contains(LOCK_KEY) {
        return None;
    }
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    is_lock_document(&value).then_some(text)
}

pub fn run(args: Args) -> Result<Outcome> {
    let mut tools = Vec::new();
    let mut stderr = std::io::stderr().lock();
    for file in &args.files {
        let contracts = read_contracts(file)?;
        for note in &contracts.notes {
            let tool = note
                .tool
                .as_deref()
                .map_or_else(String::new, |t| format!("{t} "));
            writeln!(
                stderr,
                "{}: {tool}{}: note: {}",
                note.origin, note.origin.pointer, note.message
            )?;
        }
        tools.extend(contracts.tools);
    }
    let mut sources = args.files.clone();
    if let Some(fetched) = fetch_live(&args.live)? {
        tools.extend(fetched.catalog()?.tools().cloned());
        sources.push(fetched.origin);
    }
    let lock =
        LockFile::new(&tools).with_context(|| format!("cannot lock {}", sources.join(", ")))?;
    let text = lock.to_json_string();
    if args.check {
        return check_lock(&args.output, &text, &lock, &mut stderr);
    }
    if args.output == "-" {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(text.as_bytes())
            .context("cannot write to standard output")?;
        stdout.flush().context("cannot write to standard output")?;
    } else {
        std::fs::write(&args.output, text)
            .with_context(|| format!("cannot write {}", args.output))?;
        let count = lock.tools.len();
        let noun = if count == 1 { "tool" } else { "tools" };
        writeln!(stderr, "{}: {count} {noun} locked", args.output)?;
    }
    Ok(Outcome::Clean)
}

/// `lock --check`: compares the lock file at `path` with `text`, what `lock` would write, and
/// names the tools whose contracts changed.
fn check_lock(path: &str, text: &str, lock: &LockFile, stderr: &mut impl Write) -> Result<Outcome> {
    if path == "-" {
        anyhow::bail!("--check compares with a lock file; give its path with -o FILE");
    }
    let written = match std::fs::read_to_string(path) {
        Ok(written) => written,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            writeln!(
                stderr,
                "{path}: no lock file; write it with `toolpact lock`"
            )?;
            return Ok(Outcome::Findings);
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
    };
    if written == text {
        return Ok(Outcome::Clean);
    }
    let changed = match LockFile::from_str_named(&written, path) {
        Ok(old) => {
            let old: Vec<Tool> = old.tools().cloned().collect();
            let new: Vec<Tool> = lock.tools().cloned().collect();
            let diff = toolpact::diff(&old, &new);
            diff.changed_tools().join(", ")
        }
        Err(e) => format!("it cannot be read ({e})"),
    };
    let changed = if changed.is_empty() {
        String::new()
    } else {
        format!(" (changed: {changed})")
    };
    writeln!(
        stderr,
        "{path} is stale{changed}; write it again with `toolpact lock`"
    )?;
    Ok(Outcome::Findings)
}
