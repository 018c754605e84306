//! Starting the `toolpact` binary as a server, talking to it line by line, and stopping it;
//! runs to completion go through the parent module.

use crate::common::{Invocation, Run, bin, workspace};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long a test waits for one line from a server.
const LINE_WAIT: Duration = Duration::from_secs(20);

/// The `tools` of a catalog file of the workspace.
pub fn tools_of(relative: &str) -> Vec<Value> {
    let doc: Value =
        serde_json::from_slice(&std::fs::read(workspace().join(relative)).unwrap()).unwrap();
    doc["tools"].as_array().unwrap().clone()
}

/// Lines of a stream, read on a thread so a test can wait for them with a time limit.
fn lines(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// A `toolpact` process with its standard streams; killed when dropped.
pub struct Process {
    pub child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

impl Process {
    /// Starts `toolpact ARGS…` in the workspace with extra environment variables.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Process {
        let mut command = Command::new(bin());
        command
            .args(args)
            .current_dir(workspace())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().unwrap();
        let stdin = child.stdin.take();
        let stdout = lines(child.stdout.take().unwrap());
        let stderr = lines(child.stderr.take().unwrap());
        Process {
            child,
            stdin,
            stdout,
            stderr,
        }
    }

    /// Sends one JSON-RPC message.
    pub fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and reads the next message, its answer.
    pub fn request(&mut self, message: &Value) -> Value {
        self.send(message);
        let line = self
            .stdout
            .recv_timeout(LINE_WAIT)
            .unwrap_or_else(|_| panic!("no answer to {message}"));
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Reads standard error up to the first line containing `needle`; returns the lines read,
    /// that one last.
    pub fn stderr_until(&self, needle: &str) -> Vec<String> {
        let mut read = Vec::new();
        loop {
            let line = self.stderr.recv_timeout(LINE_WAIT).unwrap_or_else(|_| {
                panic!("no line containing {needle:?} on standard error; read {read:?}")
            });
            let found = line.contains(needle);
            read.push(line);
            if found {
                return read;
            }
        }
    }

    /// Closes standard input (the client leaves) and returns the exit code.
    pub fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        self.wait()
    }

    /// Sends SIGINT (Ctrl-C) and returns the exit code.
    #[cfg(unix)]
    pub fn interrupt(mut self) -> i32 {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        self.wait()
    }

    fn wait(&mut self) -> i32 {
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the server did not stop within 10 s");
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `toolpact ARGS…` in the workspace to completion, with extra environment variables.
pub fn run(args: &[&str], env: &[(&str, &str)]) -> Run {
    env.iter()
        .fold(Invocation::new(args), |invocation, (name, value)| {
            invocation.env(name, value)
        })
        .run()
}
