//! A client that speaks raw JSON-RPC, for tests that must see every message on the wire: over
//! an in-memory pipe (newline-delimited, as on stdio) or over Streamable HTTP (one POST per
//! message, answers read from JSON or SSE bodies).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tokio::task::JoinHandle;
use toolpact_mcp::{HttpOptions, ServeError, Server};

/// How long a test waits for one message.
const PATIENCE: Duration = Duration::from_secs(10);

/// A raw client on one end of an in-memory pipe, the server on the other.
pub struct Pipe {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    serving: JoinHandle<Result<(), ServeError>>,
}

impl Pipe {
    /// Serves `server` over a pipe; nothing is sent yet.
    pub fn start(server: Server) -> Pipe {
        let (a, b) = tokio::io::duplex(1 << 20);
        let (client_read, client_write) = tokio::io::split(a);
        let serving = tokio::spawn(server.serve_io(tokio::io::split(b), std::future::pending()));
        Pipe {
            write: client_write,
            lines: BufReader::new(client_read).lines(),
            serving,
        }
    }

    /// Serves `server` and initializes a session with the client capabilities given; returns
    /// the pipe and the `initialize` result.
    pub async fn initialized(server: Server, capabilities: Value) -> (Pipe, Value) {
        let mut pipe = Pipe::start(server);
        pipe.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "raw", "version": "0"}}}),
        )
        .await;
        let answer = pipe.next().await;
        pipe.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        (pipe, answer["result"].clone())
    }

    /// Sends one message.
    pub async fn send(&mut self, message: Value) {
        self.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    /// The next message from the server.
    pub async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
            .await
            .expect("a message within 10 s")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends a request and returns the answer to it, with the messages that came before it.
    pub async fn request(&mut self, id: u64, method: &str, params: Value) -> (Value, Vec<Value>) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let mut before = Vec::new();
        loop {
            let message = self.next().await;
            if message["id"] == id && message.get("method").is_none() {
                return (message, before);
            }
            before.push(message);
        }
    }

    /// Closes the client's end and waits for the server to stop.
    pub async fn close(mut self) {
        self.write.shutdown().await.unwrap();
        tokio::time::timeout(PATIENCE, self.serving)
            .await
            .expect("the server stops when the client leaves")
            .unwrap()
            .unwrap();
    }
}

/// A raw client of a Streamable HTTP server on 127.0.0.1, with an initialized session.
pub struct Http {
    pub url: String,
    session: Option<String>,
    client: reqwest::Client,
    task: JoinHandle<Result<(), ServeError>>,
}

impl Http {
    /// Serves `server` on a free port and initializes a session.
    pub async fn initialized(server: Server) -> Http {
        let options = HttpOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            ..HttpOptions::default()
        };
        let http = server.bind_http(options).await.unwrap();
        let url = http.url();
        let task = tokio::spawn(http.serve_until(std::future::pending()));
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut raw = Http {
            url,
            session: None,
            client: reqwest::Client::new(),
            task,
        };
        let (answer, session) = raw
            .post(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"}}}),
            )
            .await;
        assert!(answer[0]["result"].is_object(), "{answer:?}");
        raw.session = session;
        raw.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        raw
    }

    /// Serves `server` without sessions on a free port (`--stateless`, and `--json-response`
    /// when `json_response`).
    pub async fn stateless(server: Server, json_response: bool) -> Http {
        let options = HttpOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            stateless: true,
            json_response,
            ..HttpOptions::default()
        };
        let http = server.bind_http(options).await.unwrap();
        let url = http.url();
        let task = tokio::spawn(http.serve_until(std::future::pending()));
        Http {
            url,
            session: None,
            client: reqwest::Client::new(),
            task,
        }
    }

    /// POSTs one message; returns the messages of the answer and the session id it names.
    pub async fn post(&self, message: Value) -> (Vec<Value>, Option<String>) {
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(message.to_string());
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        let response = tokio::time::timeout(PATIENCE, request.send())
            .await
            .expect("an answer within 10 s")
            .unwrap();
        let session = response
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_owned());
        let body = tokio::time::timeout(PATIENCE, response.text())
            .await
            .expect("a body within 10 s")
            .unwrap();
        let messages = if body.trim_start().starts_with('{') {
            vec![serde_json::from_str(&body).unwrap()]
        } else {
            body.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .filter(|data| !data.is_empty())
                .map(|data| serde_json::from_str(data).unwrap())
                .collect()
        };
        (messages, session)
    }

    /// Sends a request; returns the answer to it.
    pub async fn request(&self, id: u64, method: &str, params: Option<Value>) -> Value {
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        let (messages, _) = self.post(message).await;
        messages
            .iter()
            .find(|m| m["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("no answer to request {id}: {messages:?}"))
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        self.task.abort();
    }
}
