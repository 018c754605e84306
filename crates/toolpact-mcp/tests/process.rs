//! Stdio servers started as child processes: time limits, standard error in messages, and
//! no process left behind, helpers included.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use toolpact_mcp::{ClientError, ClientOptions, Connection, Source};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn options(seconds: u64) -> ClientOptions {
    ClientOptions {
        timeout: Duration::from_secs(seconds),
        ..ClientOptions::default()
    }
}

/// Whether a process is gone: no longer in the process table, or a zombie waiting to be reaped.
fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

fn read_pid(path: &PathBuf) -> u32 {
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Waits up to five seconds for both processes to be gone.
fn assert_stopped(pids: [u32; 2]) {
    let start = Instant::now();
    while !pids.iter().all(|&pid| is_gone(pid)) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "processes {pids:?} still run after the client gave up on them"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_and_is_stopped_with_its_helpers() {
    let dir = tempfile::tempdir().unwrap();
    let (server_pid, helper_pid) = (dir.path().join("server"), dir.path().join("helper"));
    let source = Source::command(
        "sh",
        [
            fixture("never-answers.sh"),
            server_pid.display().to_string(),
            helper_pid.display().to_string(),
        ],
    );
    let error = Connection::open(&source, &options(1)).await.unwrap_err();
    assert!(matches!(error, ClientError::Timeout { .. }), "{error}");
    let message = error.to_string();
    assert_eq!(
        message,
        format!(
            "{}: the server did not answer initialize within 1 s\nthe server's standard error ended with:\n    warming up a very slow cache",
            source.origin()
        )
    );
    assert_stopped([read_pid(&server_pid), read_pid(&helper_pid)]);
}

#[tokio::test]
async fn every_step_has_a_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (server_pid, helper_pid) = (dir.path().join("server"), dir.path().join("helper"));
    let source = Source::command(
        "sh",
        [
            fixture("hangs-after-initialize.sh"),
            server_pid.display().to_string(),
            helper_pid.display().to_string(),
        ],
    );
    let connection = Connection::open(&source, &options(1)).await.unwrap();
    assert_eq!(
        connection.server_info().unwrap().name.as_deref(),
        Some("hangs")
    );
    let error = connection.list_tools().await.unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the server did not answer tools/list within 1 s"),
        "{error}"
    );
    let pids = [read_pid(&server_pid), read_pid(&helper_pid)];
    drop(connection);
    assert_stopped(pids);
}

#[tokio::test]
async fn a_server_that_exits_says_why_in_the_error() {
    let source = Source::command(
        "sh",
        ["-c", "echo 'fatal: DATABASE_URL is not set' >&2; exit 3"],
    );
    let error = Connection::open(&source, &options(10)).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "sh -c 'echo '\\''fatal: DATABASE_URL is not set'\\'' >&2; exit 3': initialize failed: the server closed the connection before answering\nthe server's standard error ended with:\n    fatal: DATABASE_URL is not set"
    );
}

#[tokio::test]
async fn a_missing_program_is_named() {
    let source = Source::command("/nonexistent/mcp-server", ["--stdio"]);
    let error = Connection::open(&source, &options(10)).await.unwrap_err();
    assert!(matches!(error, ClientError::Spawn { .. }));
    assert!(
        error
            .to_string()
            .starts_with("cannot start /nonexistent/mcp-server --stdio: "),
        "{error}"
    );
    let empty = Connection::open(&Source::command("", Vec::<String>::new()), &options(10))
        .await
        .unwrap_err();
    assert_eq!(
        empty.to_string(),
        "no server command given; write the command after `--`"
    );
}

#[tokio::test]
async fn a_server_that_logs_to_standard_output_is_reported_as_such() {
    let source = Source::command(
        "sh",
        [
            "-c",
            "echo 'Listening on port 3000'; echo '{\"not\": \"a message\"}'; sleep 30",
        ],
    );
    let error = Connection::open(&source, &options(1)).await.unwrap_err();
    assert!(!matches!(error, ClientError::Timeout { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!(
            "{}: initialize failed: the server wrote 2 lines to standard output that are not JSON-RPC (\"Listening on port 3000\", \"{{\\\"not\\\": \\\"a message\\\"}}\"); a stdio server must write only protocol messages there, and its logs to standard error; no answer came within 1 s",
            source.origin()
        )
    );
    // A server that exits after its banner says why it closed, and quotes the banner when
    // the banner was read before the closed pipe was seen: the request written to a server
    // that has exited may fail first, and what it wrote is then gone with the pipe.
    let source = Source::command("sh", ["-c", "echo 'usage: server [--port N]'"]);
    let error = Connection::open(&source, &options(10)).await.unwrap_err();
    let closed = "initialize failed: the server closed the connection before answering";
    let message = error.to_string();
    assert!(
        message.ends_with(&format!(
            "{closed}; the server wrote 1 line to standard output that is not JSON-RPC (\"usage: server [--port N]\"); a stdio server must write only protocol messages there, and its logs to standard error"
        )) || message.ends_with(closed),
        "{error}"
    );
}
