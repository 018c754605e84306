//! Running `toolpact request` as a user does, from the workspace root, and reading what it
//! printed.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The tools every test sends: the clean gift-shop catalog.
pub const CATALOG: &str = "examples/catalogs/gift-shop.json";

/// The shared system prompt.
pub const SYSTEM: &str = "fixtures/conversations/system.md";

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

    /// Asserts that the command could not run: exit 2, nothing on stdout, one `error: ` line on
    /// stderr, which is returned without the prefix.
    pub fn usage_error(&self) -> &str {
        self.assert_code(2);
        assert_eq!(
            self.stdout, "",
            "nothing goes to stdout when the command cannot run"
        );
        self.stderr
            .strip_prefix("error: ")
            .unwrap_or_else(|| panic!("stderr should start with `error: `:\n{}", self.stderr))
            .trim_end()
    }
}

/// `toolpact request ARGS`, run from the workspace root so paths read `fixtures/...`.
pub fn request(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolpact"))
        .arg("request")
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

/// A file from the workspace root.
pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path),
    )
    .unwrap()
}
