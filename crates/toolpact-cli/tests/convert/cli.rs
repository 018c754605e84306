//! Running the `toolpact` binary and reading what it printed.

use serde_json::Value;
use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Every target `--to` accepts.
pub const TARGETS: [&str; 6] = [
    "mcp",
    "openai-responses",
    "openai-chat",
    "anthropic",
    "gemini",
    "gemini-json",
];

/// The workspace root. Commands run there, so fixture paths in messages read
/// `fixtures/...` and snapshots do not depend on where the checkout lives.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// What one run of the binary left behind.
#[derive(Debug)]
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text.
    pub stderr: String,
}

impl Run {
    /// Standard output parsed as JSON (the payload, when it goes to stdout).
    pub fn payload(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e})\n--- stderr ---\n{}\n--- stdout ---\n{}",
                self.stderr,
                head(&self.stdout)
            )
        })
    }

    /// Asserts the exit code, showing both streams when it is not the one expected.
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code,
            code,
            "expected exit {code}, got {}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.code,
            head(&self.stderr),
            head(&self.stdout)
        );
        self
    }
}

/// The start of a long output, for failure messages.
fn head(text: &str) -> &str {
    let end = (0..=text.len().min(2000))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    &text[..end]
}

/// Runs `toolpact ARGS` from the workspace root with no standard input.
pub fn toolpact<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run(args, None)
}

/// Runs `toolpact ARGS` from the workspace root with `stdin` on standard input.
pub fn toolpact_with_stdin<I, S>(args: I, stdin: &[u8]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run(args, Some(stdin))
}

fn run<I, S>(args: I, stdin: Option<&[u8]>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolpact"))
        .args(args)
        .current_dir(workspace())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        // Written from a thread: a large input would otherwise fill the pipe while the child
        // blocks writing its own output.
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    // A signal (a stack overflow is SIGSEGV or SIGABRT) leaves no exit code.
    let code = output.status.code().unwrap_or_else(|| {
        panic!(
            "toolpact was killed by a signal ({}); stderr:\n{stderr}",
            output.status
        )
    });
    assert!(!stderr.contains("panicked"), "toolpact panicked:\n{stderr}");
    Run {
        code,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr,
    }
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
