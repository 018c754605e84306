//! Running `toolpact validate` as a user does, from the workspace root, and reading what it
//! printed.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The catalog every test validates against: `get_forecast(city, days?, units?)`, closed to
/// other properties.
pub const CATALOG: &str = "fixtures/seeds/get_forecast.json";

/// This binary's own fixtures, from the workspace root.
pub const FIXTURES: &str = "crates/toolpact-cli/tests/validate/fixtures";

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
    /// Asserts the exit code, showing both streams when it is not the one expected.
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "expected exit {code}, got {}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.code, self.stderr, self.stdout
        );
        self
    }

    /// Standard output parsed as JSON (`--format json`).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }

    /// Asserts that the command could not run: exit 2, nothing on stdout, and one `error: `
    /// message on stderr, which is returned.
    pub fn assert_usage_error(&self) -> &str {
        self.assert_code(2);
        assert_eq!(
            self.stdout, "",
            "nothing goes to stdout when the command cannot run"
        );
        assert!(
            self.stderr.starts_with("error: "),
            "stderr should start with `error: `:\n{}",
            self.stderr
        );
        &self.stderr
    }
}

/// `toolpact validate CATALOG ARGS` with no standard input.
pub fn validate(args: &[&str]) -> Run {
    let mut all = vec!["validate", CATALOG];
    all.extend_from_slice(args);
    toolpact(&all, None)
}

/// `toolpact validate CATALOG ARGS` with `stdin` on standard input.
pub fn validate_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let mut all = vec!["validate", CATALOG];
    all.extend_from_slice(args);
    toolpact(&all, Some(stdin))
}

/// `toolpact ARGS`, run from the workspace root so paths read `fixtures/...`.
pub fn toolpact(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolpact"))
        .args(args)
        .current_dir(root)
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
        // Inputs here are small: they fit in the pipe, so writing before reading is safe.
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(bytes).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("toolpact was killed by a signal; stderr:\n{stderr}"));
    assert!(!stderr.contains("panicked"), "toolpact panicked:\n{stderr}");
    Run {
        code,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr,
    }
}

/// The contents of a file, from the workspace root.
pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path),
    )
    .unwrap()
}
