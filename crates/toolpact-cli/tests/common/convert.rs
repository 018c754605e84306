//! What the `convert` tests add to running the binary (the parent module): the targets, and
//! reading payloads and error positions.

use crate::common::{Invocation, Run};
use serde_json::Value;
use std::ffi::OsStr;

/// Every target `--to` accepts.
pub const TARGETS: [&str; 6] = [
    "mcp",
    "openai-responses",
    "openai-chat",
    "anthropic",
    "gemini",
    "gemini-json",
];

/// Runs `toolpact ARGS` from the workspace root with `stdin` on standard input.
pub fn toolpact_with_stdin<I, S>(args: I, stdin: &[u8]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Invocation::new(args).stdin(stdin).run()
}

/// The tool names in a payload of `target`, in order.
pub fn exported_names(target: &str, payload: &Value) -> Vec<String> {
    let tools: Vec<&Value> = match target {
        "mcp" => payload["tools"].as_array().unwrap().iter().collect(),
        "openai-responses" | "anthropic" => payload.as_array().unwrap().iter().collect(),
        "openai-chat" => payload
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["function"])
            .collect(),
        "gemini" | "gemini-json" => payload
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["functionDeclarations"].as_array().unwrap())
            .collect(),
        other => unreachable!("not a target: {other}"),
    };
    tools
        .into_iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The `LINE:COLUMN` right after `FILE:` in an error message, when there is one.
pub fn position_after(stderr: &str, file: &str) -> Option<(usize, usize)> {
    let rest = &stderr[stderr.find(&format!("{file}:"))? + file.len() + 1..];
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let column = parts.next()?.parse().ok()?;
    parts.next()?;
    Some((line, column))
}

/// Asserts that stderr is one error line naming `file` and a 1-based `LINE:COLUMN` in it.
pub fn assert_error_at(run: &Run, file: &str) {
    assert!(
        run.stderr.starts_with(&format!("error: {file}:")),
        "the error should start with `error: {file}:`, got:\n{}",
        run.stderr
    );
    let position = position_after(&run.stderr, file);
    assert!(
        position.is_some_and(|(line, column)| line >= 1 && column >= 1),
        "the error should name {file}:LINE:COLUMN with both counted from 1, got:\n{}",
        run.stderr
    );
}
