//! Running the `toolpact` binary and reading what it printed.

use serde_json::Value;
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root. Commands run there unless a test says otherwise, so fixture paths in
/// messages read `fixtures/...` and snapshots do not depend on where the checkout lives.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The fixture pairs under `fixtures/diff/`, sorted by name.
pub fn diff_cases() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(workspace().join("fixtures/diff"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
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
    /// Asserts the exit code, showing both streams when it is not the one expected.
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "expected exit {code}, got {}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.code, self.stderr, self.stdout
        );
        self
    }

    /// Standard output parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }

    /// Asserts that the command could not run: exit 2, nothing on stdout, one `error: `
    /// message on stderr, which is returned.
    pub fn assert_error(&self) -> &str {
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

/// Runs `toolpact ARGS` from the workspace root with no standard input.
pub fn toolpact<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_in(&workspace(), args, None)
}

/// Runs `toolpact ARGS` from the workspace root with `stdin` on standard input.
pub fn toolpact_with_stdin<I, S>(args: I, stdin: &[u8]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_in(&workspace(), args, Some(stdin))
}

/// Runs `toolpact ARGS` from `dir`.
pub fn run_in<I, S>(dir: &Path, args: I, stdin: Option<&[u8]>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolpact"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
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
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
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
