//! A stdio server started as a child process: spawned in its own process group (so a server
//! started through a wrapper such as `npx` or `uv run` is stopped with everything it started),
//! killed when the connection is dropped or times out, and its standard error either passed
//! through or kept (the last lines) for error messages.

use crate::error::ClientError;
use process_wrap::tokio::{CommandWrap, KillOnDrop};
use rmcp::transport::TokioChildProcess;
use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::task::JoinHandle;

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
    pid: Option<u32>,
    tail: Arc<Mutex<VecDeque<String>>>,
    reader: Option<JoinHandle<()>>,
}

/// Spawns `program args…` with piped stdin and stdout for the transport.
pub(crate) fn spawn(
    program: &str,
    args: &[String],
    origin: &str,
    stderr: ServerStderr,
) -> Result<(TokioChildProcess, Child), ClientError> {
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    let mut wrap = CommandWrap::from(command);
    wrap.wrap(KillOnDrop);
    #[cfg(unix)]
    wrap.wrap(process_wrap::tokio::ProcessGroup::leader());
    let stdio = match stderr {
        ServerStderr::Inherit => Stdio::inherit(),
        ServerStderr::Capture => Stdio::piped(),
    };
    let (transport, stderr) = TokioChildProcess::builder(wrap)
        .stderr(stdio)
        .spawn()
        .map_err(|source| ClientError::Spawn {
            command: origin.to_owned(),
            source,
        })?;
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let reader = stderr.map(|stderr| {
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
    let pid = transport.id();
    Ok((transport, Child { pid, tail, reader }))
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
