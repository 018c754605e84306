//! The MCP server's stdio transport, fed any bytes as the client's side of the pipe
//! (newline-delimited JSON-RPC): never a panic, never a hang (the session ends within seconds
//! of the client closing its end); every line the server writes is a JSON-RPC 2.0 message;
//! every line that is not JSON is answered with a parse error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::runtime::Runtime;
use toolpact_fuzz::seed_registry;
use toolpact_mcp::Server;

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => panic!("no tokio runtime: {e}"),
        }
    })
}

/// Everything the server writes for `input`, once the client has closed its end, and whether
/// the session read it to the end (a session that ends on a message that breaks it, such as
/// a notification before `initialize`, reads nothing after it).
async fn serve(input: Vec<u8>) -> (Vec<u8>, bool) {
    let server = match Server::new(seed_registry()) {
        Ok(server) => server,
        Err(e) => panic!("the seed tools are not served: {e}"),
    };
    let (mut client_in, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut client_out) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(server.serve_io((server_in, server_out), std::future::pending()));
    let writing = tokio::spawn(async move {
        let _ = client_in.write_all(&input).await;
        let _ = client_in.shutdown().await;
    });
    let mut output = Vec::new();
    let _ = client_out.read_to_end(&mut output).await;
    let _ = writing.await;
    // A session error is an answer, not a crash; the output must still be well formed.
    let read_to_the_end = matches!(serving.await, Ok(Ok(())));
    (output, read_to_the_end)
}

fuzz_target!(|data: &[u8]| {
    let input = data.to_vec();
    let (output, read_to_the_end) = runtime().block_on(async {
        match tokio::time::timeout(Duration::from_secs(20), serve(input)).await {
            Ok(output) => output,
            Err(_) => panic!("the server did not end within 20 s of the client closing its end"),
        }
    });
    let mut parse_errors = 0;
    for line in output
        .split(|b| *b == b'\n')
        .filter(|l| !l.trim_ascii().is_empty())
    {
        let message: Value = match serde_json::from_slice(line) {
            Ok(message) => message,
            Err(e) => panic!(
                "the server wrote a line that is not JSON ({e}): {}",
                String::from_utf8_lossy(line)
            ),
        };
        assert_eq!(
            message.get("jsonrpc").and_then(Value::as_str),
            Some("2.0"),
            "not JSON-RPC 2.0: {message}"
        );
        if message.pointer("/error/code").and_then(Value::as_i64) == Some(-32700) {
            parse_errors += 1;
        }
    }
    let not_json = data
        .split(|b| *b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty() && serde_json::from_slice::<serde::de::IgnoredAny>(l).is_err())
        .count();
    assert!(
        !read_to_the_end || parse_errors >= not_json,
        "{not_json} lines are not JSON, {parse_errors} parse errors answered"
    );
});
