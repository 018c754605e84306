//! Running the `toolpact` binary as a user does and reading what it left behind: the exit
//! code, standard output and standard error. What only one command's tests need is in the
//! submodule named after the command.

pub mod catalogs;
pub mod check;
pub mod contract;
pub mod convert;
pub mod mcp;
pub mod request;
pub mod validate;

use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root. Commands run there unless a test says otherwise, so paths in messages
/// read `examples/...` or `fixtures/...` and snapshots do not depend on where the checkout
/// lives.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A file of the workspace, as an absolute path.
pub fn absolute(relative: &str) -> String {
    workspace().join(relative).display().to_string()
}

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_toolpact")
}

/// The contents of a file of the workspace.
pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(workspace().join(path)).unwrap()
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
            self.code,
            code,
            "expected exit {code}, got {}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.code,
            head(&self.stderr),
            head(&self.stdout)
        );
        self
    }

    /// Standard output parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e})\n--- stderr ---\n{}\n--- stdout ---\n{}",
                self.stderr,
                head(&self.stdout)
            )
        })
    }

    /// Standard output parsed as JSON (the payload, when it goes to stdout).
    pub fn payload(&self) -> Value {
        self.json()
    }

    /// Asserts that the command could not run: exit 2, nothing on stdout, and one `error: `
    /// message on stderr, which is returned.
    pub fn assert_usage_error(&self) -> &str {
        self.assert_error()
    }

    /// Asserts that the command could not run: exit 2, nothing on stdout, one `error: ` line on
    /// stderr, which is returned without the prefix.
    pub fn usage_error(&self) -> &str {
        self.assert_error()
            .strip_prefix("error: ")
            .unwrap_or_default()
            .trim_end()
    }

    /// Asserts that the command could not run: exit 2, nothing on stdout, and a message
    /// starting with `error: ` on stderr, which is returned whole.
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

/// The start of a long output, for failure messages.
pub fn head(text: &str) -> &str {
    let end = (0..=text.len().min(2000))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    &text[..end]
}

/// One run of the binary to make: its arguments, directory, environment and standard input.
/// By default it runs from the workspace root with no standard input.
#[derive(Debug)]
pub struct Invocation {
    args: Vec<OsString>,
    dir: PathBuf,
    env: Vec<(OsString, OsString)>,
    stdin: Option<Vec<u8>>,
}

impl Invocation {
    /// `toolpact ARGS`.
    pub fn new<I, S>(args: I) -> Invocation
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Invocation {
            args: args.into_iter().map(|a| a.as_ref().to_owned()).collect(),
            dir: workspace(),
            env: Vec::new(),
            stdin: None,
        }
    }

    /// Runs from `dir` instead of the workspace root.
    pub fn current_dir(mut self, dir: &Path) -> Invocation {
        self.dir = dir.to_path_buf();
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, name: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Invocation {
        self.env
            .push((name.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// Writes `bytes` to standard input, then closes it.
    pub fn stdin(mut self, bytes: &[u8]) -> Invocation {
        self.stdin = Some(bytes.to_vec());
        self
    }

    /// Runs the binary to completion. A run killed by a signal (a stack overflow is SIGSEGV
    /// or SIGABRT) or one that panicked fails the test.
    pub fn run(self) -> Run {
        let mut command = Command::new(bin());
        command
            .args(&self.args)
            .current_dir(&self.dir)
            .envs(self.env)
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().unwrap();
        if let Some(bytes) = self.stdin {
            // Written from a thread: a large input would otherwise fill the pipe while the
            // child blocks writing its own output.
            let mut pipe = child.stdin.take().unwrap();
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
}

/// Runs `toolpact ARGS` from the workspace root with no standard input.
pub fn toolpact<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Invocation::new(args).run()
}
