//! The MCP server's Streamable HTTP endpoint, sent any request: never a panic, never a 5xx;
//! the answer is HTTP/1.1 with a status line; a JSON body is valid JSON and every SSE `data:`
//! line is.
//!
//! The input is the request: the first byte picks the method, the text up to the first blank
//! line holds header lines (`Name: value`), the rest is the body. `Host`, `Content-Length` and
//! `Connection: close` are added so that the framing stays sound and every answer ends.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;
use toolpact_fuzz::seed_registry;
use toolpact_mcp::{HttpOptions, MCP_PATH, Server};

/// The server, started once on its own thread, and its address.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => panic!("no tokio runtime: {e}"),
            };
            runtime.block_on(async move {
                let server = match Server::new(seed_registry()) {
                    Ok(server) => server,
                    Err(e) => panic!("the seed tools are not served: {e}"),
                };
                let options = HttpOptions {
                    addr: SocketAddr::from(([127, 0, 0, 1], 0)),
                    max_body_bytes: 64 * 1024,
                    ..HttpOptions::default()
                };
                let http = match server.bind_http(options).await {
                    Ok(http) => http,
                    Err(e) => panic!("cannot bind: {e}"),
                };
                let _ = tx.send(http.local_addr());
                let _ = http.serve_until(std::future::pending()).await;
            });
        });
        match rx.recv() {
            Ok(addr) => addr,
            Err(e) => panic!("the server did not start: {e}"),
        }
    })
}

const METHODS: [&str; 5] = ["POST", "GET", "DELETE", "OPTIONS", "PUT"];

/// Headers the harness sets itself, for sound framing.
const FRAMING: [&str; 4] = ["host", "content-length", "transfer-encoding", "connection"];

fn request(data: &[u8], addr: SocketAddr) -> Option<Vec<u8>> {
    let (first, rest) = data.split_first()?;
    let method = METHODS[usize::from(*first) % METHODS.len()];
    let (head, body) = match rest.windows(2).position(|w| w == b"\n\n") {
        Some(at) => (&rest[..at], &rest[at + 2..]),
        None => (&[][..], rest),
    };
    let head = std::str::from_utf8(head).ok()?;
    let mut out = format!("{method} {MCP_PATH} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for line in head.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let name = name.trim();
        let valid_name =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !valid_name
            || FRAMING.contains(&name.to_ascii_lowercase().as_str())
            || value.contains('\r')
        {
            continue;
        }
        out.push_str(&format!("{name}:{value}\r\n"));
    }
    out.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    Some(bytes)
}

/// A chunked body's content (RFC 9112 §7.1), `None` when it is not well chunked. A body cut
/// short by the read timeout (an open event stream) keeps what arrived whole.
fn dechunk(mut body: &str) -> Option<String> {
    let mut out = String::new();
    loop {
        let Some((size, rest)) = body.split_once("\r\n") else {
            return Some(out);
        };
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        let Some(chunk) = rest.get(..size) else {
            return Some(out);
        };
        out.push_str(chunk);
        body = rest.get(size..)?.strip_prefix("\r\n").unwrap_or("");
    }
}

fuzz_target!(|data: &[u8]| {
    let addr = server();
    let Some(request) = request(data, addr) else {
        return;
    };
    let mut stream = match TcpStream::connect(addr) {
        Ok(stream) => stream,
        Err(e) => panic!("cannot connect: {e}"),
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    if stream.write_all(&request).is_err() {
        return;
    }
    let mut answer = Vec::new();
    if let Err(e) = stream.read_to_end(&mut answer) {
        // An open event stream (a GET that found its session) may stay open; anything else
        // must end once the answer is written.
        let text = String::from_utf8_lossy(&answer);
        assert!(
            text.contains("text/event-stream"),
            "the answer did not end ({e}): {text}"
        );
    }
    let text = String::from_utf8_lossy(&answer);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        panic!("no HTTP answer: {text:?}");
    };
    let status: u16 = head
        .strip_prefix("HTTP/1.1 ")
        .and_then(|s| s.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head:?}"));
    assert!(
        status < 500,
        "status {status} for a client's request:\n{text}"
    );
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(body).unwrap_or_else(|| panic!("a chunked body that is not chunked:\n{text}"))
    } else {
        body.to_owned()
    };
    let body = body.as_str();
    if head.contains("content-type: application/json") && !body.is_empty() {
        if let Err(e) = serde_json::from_str::<Value>(body) {
            panic!("a JSON answer that is not JSON ({e}):\n{text}");
        }
    }
    if head.contains("content-type: text/event-stream") {
        for line in body.lines() {
            if let Some(data) = line.strip_prefix("data:") {
                let data = data.trim();
                if !data.is_empty() && serde_json::from_str::<Value>(data).is_err() {
                    panic!("an event whose data is not JSON: {data:?}\n{text}");
                }
            }
        }
    }
});
