//! A stdio server started as a child process: spawned in its own process group (so a server
//! started through a wrapper such as `npx` or `uv run` is stopped with everything it started),
//! killed when the connection is dropped or times out, and its standard error either passed
//! through or kept (the last lines) for error messages. Its standard output is read with
//! [`crate::jsonl`]'s framing: lines that are not JSON-RPC are kept, so that a server that
//! writes its logs there is reported as such rather than as one that does not answer.

use crate::error::ClientError;
use crate::jsonl::{LineTransport, Stray, StrayLines};
use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop};
use rmcp::RoleClient;
use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};
use tokio::task::JoinHandle;

/// The transport to a child server: its standard output and input.
pub(crate) type ChildTransport = LineTransport<RoleClient, ChildStdout, ChildStdin>;

/// What happens to the server's standard error.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerStderr {
    /// Passed through to this process's standard error.
    Inherit,
    /// Kept: its last lines end the error message when a step fails.
    #[default]
    Capture,
}

/// How many lines of the server's standard error are kept.
const TAIL_LINES: usize = 40;
/// The longest line kept, in characters.
const TAIL_LINE_CHARS: usize = 400;

/// The child's process group and captured standard error. Dropping it kills the group.
pub(crate) struct Child {
    process: Box<dyn ChildWrapper>,
    pid: Option<u32>,
    stray: Arc<StrayLines>,
    tail: Arc<Mutex<VecDeque<String>>>,
    reader: Option<JoinHandle<()>>,
}

/// Spawns `program args…` with piped standard input and output for the transport.
pub(crate) fn spawn(
    program: &str,
    args: &[String],
    origin: &str,
    stderr: ServerStderr,
) -> Result<(ChildTransport, Child), ClientError> {
    let (stdout, stdin, child) = spawn_pipes(program, args, origin, stderr)?;
    let transport = LineTransport::new(stdout, stdin, Stray::Note(Arc::clone(&child.stray)));
    Ok((transport, child))
}

/// Spawns `program args…` and hands over its standard output and input as they are, for a
/// reader that frames the lines itself.
pub(crate) fn spawn_pipes(
    program: &str,
    args: &[String],
    origin: &str,
    stderr: ServerStderr,
) -> Result<(ChildStdout, ChildStdin, Child), ClientError> {
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(match stderr {
            ServerStderr::Inherit => Stdio::inherit(),
            ServerStderr::Capture => Stdio::piped(),
        });
    let mut wrap = CommandWrap::from(command);
    wrap.wrap(KillOnDrop);
    #[cfg(unix)]
    wrap.wrap(process_wrap::tokio::ProcessGroup::leader());
    let spawn_error = |error| ClientError::Spawn {
        command: origin.to_owned(),
        error,
    };
    let mut process = wrap.spawn().map_err(spawn_error)?;
    let (Some(stdin), Some(stdout)) = (process.stdin().take(), process.stdout().take()) else {
        return Err(spawn_error(std::io::Error::other(
            "the standard input and output of the server are not pipes",
        )));
    };
    let stray = Arc::new(StrayLines::default());
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let reader = process.stderr().take().map(|stderr| {
        let tail = Arc::clone(&tail);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::debug!(target: "toolpact_mcp::server_stderr", "{line}");
                if let Ok(mut tail) = tail.lock() {
                    if tail.len() == TAIL_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line.chars().take(TAIL_LINE_CHARS).collect());
                }
            }
        })
    });
    let pid = process.id();
    Ok((
        stdout,
        stdin,
        Child {
            process,
            pid,
            stray,
            tail,
            reader,
        },
    ))
}

impl Child {
    /// Kills the process group: the server and whatever it started.
    pub(crate) fn kill(&self) {
        #[cfg(unix)]
        if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
            use nix::sys::signal::{Signal, killpg};
            use nix::unistd::Pid;
            // ESRCH (the group is gone already) is the usual answer after a clean exit.
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }

    /// Waits up to `limit` for the server to exit on its own.
    pub(crate) async fn wait_exit(&mut self, limit: Duration) {
        let _ = tokio::time::timeout(limit, self.process.wait()).await;
    }

    /// Waits for the server to exit and says how it ended ("exit status 3", "signal 9").
    pub(crate) async fn exit_status(&mut self, limit: Duration) -> Option<String> {
        match tokio::time::timeout(limit, self.process.wait()).await {
            Ok(Ok(status)) => Some(status.to_string()),
            _ => None,
        }
    }

    /// Notes a line the server wrote to its standard output that is not JSON-RPC.
    pub(crate) fn note_stray(&self, line: &[u8]) {
        self.stray.note(line);
    }

    /// What the server wrote to its standard output that is not JSON-RPC, as a sentence;
    /// `None` when it wrote nothing else.
    pub(crate) fn stray_output(&self) -> Option<String> {
        self.stray.describe()
    }

    /// The end of the server's standard error, as a suffix for an error message (empty when
    /// nothing was captured). Waits briefly for the last lines of a server that is exiting.
    pub(crate) async fn stderr_suffix(&mut self) -> String {
        if let Some(reader) = self.reader.as_mut()
            && tokio::time::timeout(Duration::from_millis(500), reader)
                .await
                .is_ok()
        {
            self.reader = None;
        }
        self.stderr_suffix_now()
    }

    /// [`Child::stderr_suffix`] without waiting.
    pub(crate) fn stderr_suffix_now(&self) -> String {
        let Ok(tail) = self.tail.lock() else {
            return String::new();
        };
        if tail.is_empty() {
            return String::new();
        }
        let mut out = String::from("\nthe server's standard error ended with:");
        for line in tail.iter() {
            out.push_str("\n    ");
            out.push_str(line);
        }
        out
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill();
        if let Some(reader) = self.reader.take() {
            reader.abort();
        }
    }
}
