//! Writing payloads and reports: JSON to stdout or a file, and a closed pipe is not an error.

use anyhow::{Context, Result};
use serde_json::Value;
use std::io::Write;

/// Writes pretty JSON and a final newline to `path`, or to standard output when `path` is
/// `None` or `-`.
pub fn write_json(value: &Value, path: Option<&str>) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot serialize the output")?;
    text.push('\n');
    match path {
        Some(path) if path != "-" => {
            std::fs::write(path, text).with_context(|| format!("cannot write {path}"))
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .context("cannot write to standard output")?;
            stdout.flush().context("cannot write to standard output")
        }
    }
}

/// Whether an error is a closed pipe (`toolpact … | head`), which ends output quietly.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
