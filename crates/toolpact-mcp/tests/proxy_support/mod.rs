//! What the proxy tests share: a proxy between two in-memory pipes, and a peer on each end
//! that speaks raw JSON lines, so that a test can play any client and any upstream server,
//! hostile ones included, and see every byte the proxy sends.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tokio::task::JoinHandle;
use toolpact_mcp::{AuditTarget, Proxy, ProxyOptions};

/// How long a test waits for a message before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// One end of a pipe, reading and writing JSON lines.
pub struct Peer {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
}

impl Peer {
    fn new(stream: DuplexStream) -> Peer {
        let (read, write) = tokio::io::split(stream);
        Peer {
            lines: BufReader::new(read).lines(),
            write,
        }
    }

    /// Sends one message.
    pub async fn send(&mut self, message: Value) {
        self.send_raw(message.to_string().as_bytes()).await;
    }

    /// Sends bytes as they are, with a newline.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        let mut line = bytes.to_vec();
        line.push(b'\n');
        self.write.write_all(&line).await.unwrap();
        self.write.flush().await.unwrap();
    }

    /// The next message; fails the test after [`PATIENCE`].
    pub async fn recv(&mut self) -> Value {
        let line = self.recv_line().await;
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// The next line as it came, without its newline; fails the test after [`PATIENCE`].
    pub async fn recv_line(&mut self) -> String {
        tokio::time::timeout(PATIENCE, self.lines.next_line())
            .await
            .expect("no message came in time")
            .unwrap()
            .expect("the pipe closed")
    }

    /// The next message for which `wanted` holds, skipping others.
    pub async fn recv_where(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.recv().await;
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The next message with this method, skipping others.
    pub async fn recv_method(&mut self, method: &str) -> Value {
        self.recv_where(|m| m["method"] == method).await
    }

    /// The answer to request `id`, skipping everything else.
    pub async fn recv_answer(&mut self, id: Value) -> Value {
        self.recv_where(|m| m["id"] == id && m.get("method").is_none())
            .await
    }

    /// Whether nothing arrives within `wait`.
    pub async fn is_quiet(&mut self, wait: Duration) -> bool {
        tokio::time::timeout(wait, self.lines.next_line())
            .await
            .is_err()
    }

    /// Closes the writing side (the other end reads the end of its input).
    pub async fn close(&mut self) {
        let _ = self.write.shutdown().await;
    }
}

/// A proxy between a test client and a test upstream.
pub struct Setup {
    /// The client's end.
    pub client: Peer,
    /// The upstream server's end.
    pub upstream: Peer,
    /// The relay.
    pub relay: JoinHandle<()>,
    /// The audit log file.
    pub audit: PathBuf,
    _dir: tempfile::TempDir,
}

impl Setup {
    /// The audit log's events so far.
    pub fn audit_events(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.audit)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The audit events of one kind.
    pub fn events(&self, event: &str) -> Vec<Value> {
        self.audit_events()
            .into_iter()
            .filter(|e| e["event"] == event)
            .collect()
    }

    /// The tools of the `tool-withheld` or `tool-warned` events, each with its check and its
    /// reason, once each.
    pub fn verdicts(&self, event: &str) -> BTreeSet<(String, String, String)> {
        self.events(event)
            .iter()
            .map(|e| {
                let text = |key: &str| e[key].as_str().unwrap().to_owned();
                (text("tool"), text("check"), text("reason"))
            })
            .collect()
    }
}

/// Starts a proxy with `options` (its audit log in a temporary file).
pub fn start(mut options: ProxyOptions) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    options.audit = AuditTarget::File(audit.clone());
    start_in(options, dir, audit)
}

/// Starts a proxy with `options` as they are, in `dir`.
pub fn start_in(options: ProxyOptions, dir: tempfile::TempDir, audit: PathBuf) -> Setup {
    let proxy = Proxy::new(options).unwrap();
    let (client, proxy_client) = tokio::io::duplex(1 << 20);
    let (proxy_upstream, upstream) = tokio::io::duplex(1 << 20);
    let relay = tokio::spawn(async move {
        proxy
            .relay(
                tokio::io::split(proxy_client),
                tokio::io::split(proxy_upstream),
                "test-upstream",
                std::future::pending(),
            )
            .await;
    });
    Setup {
        client: Peer::new(client),
        upstream: Peer::new(upstream),
        relay,
        audit,
        _dir: dir,
    }
}

/// A tool with one required string argument `city`.
pub fn weather_tool(description: &str) -> Value {
    json!({
        "name": "get_weather",
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "The city, such as Paris.", "minLength": 1}},
            "required": ["city"],
            "additionalProperties": false
        },
        "annotations": {"readOnlyHint": true}
    })
}

/// A tool without annotations whose arguments are any object.
pub fn plain_tool(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description, "inputSchema": {"type": "object"}})
}

/// Writes a lock file (`toolpact.lock` in `dir`) that pins `tools`; returns its path.
pub fn write_lock(dir: &Path, tools: &[Value]) -> PathBuf {
    let tools: Vec<toolpact::Tool> = tools
        .iter()
        .map(|t| serde_json::from_value(t.clone()).unwrap())
        .collect();
    let path = dir.join("toolpact.lock");
    std::fs::write(
        &path,
        toolpact::LockFile::new(&tools).unwrap().to_json_string(),
    )
    .unwrap();
    path
}

/// A plain description the linter has nothing against.
pub const WEATHER: &str = "Get the current weather for a city. Returns the temperature in degrees Celsius and a one-line summary. Use it when the user asks about the weather now; it does not forecast.";

/// `initialize`, `notifications/initialized`, and the proxy's own `tools/list` answered with
/// `tools`: the session as a client and server open it.
pub async fn handshake(setup: &mut Setup, tools: &[Value]) {
    initialize(setup).await;
    answer_list(&mut setup.upstream, tools).await;
}

/// `initialize` and `notifications/initialized`, passed through; the proxy's own `tools/list`
/// is then on its way to the upstream.
pub async fn initialize(setup: &mut Setup) {
    setup
        .client
        .send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}
        }}))
        .await;
    let init = setup.upstream.recv_method("initialize").await;
    assert_eq!(
        init["id"], 0,
        "the client's request passes as it is: {init}"
    );
    setup
        .upstream
        .send(json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": {"name": "upstream", "version": "1"}
        }}))
        .await;
    let answer = setup.client.recv_answer(json!(0)).await;
    assert_eq!(answer["result"]["serverInfo"]["name"], "upstream");
    setup
        .client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    setup
        .upstream
        .recv_method("notifications/initialized")
        .await;
}

/// Waits for the proxy's own `tools/list` and answers it with `tools`.
pub async fn answer_list(upstream: &mut Peer, tools: &[Value]) {
    let list = upstream.recv_method("tools/list").await;
    let id = list["id"].clone();
    assert!(
        id.as_str()
            .is_some_and(|s| s.starts_with("toolpact-proxy/")),
        "the proxy's own request has an id of its own: {list}"
    );
    upstream
        .send(json!({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}}))
        .await;
}

/// The client lists the tools (the upstream answers with `tools`); returns the names the
/// client sees.
pub async fn client_list(setup: &mut Setup, id: u64, tools: &[Value]) -> Vec<String> {
    setup
        .client
        .send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {}}))
        .await;
    let request = setup.upstream.recv_method("tools/list").await;
    assert_eq!(request["id"], id);
    setup
        .upstream
        .send(json!({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}}))
        .await;
    let answer = setup.client.recv_answer(json!(id)).await;
    answer["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// A `tools/call` request.
pub fn call(id: u64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

/// The client sends `request` (a `tools/call`); returns it as the upstream receives it.
pub async fn forward(setup: &mut Setup, request: Value) -> Value {
    setup.client.send(request).await;
    setup.upstream.recv_method("tools/call").await
}

/// The client sends `request` (a `tools/call`) and the upstream answers it with `result`;
/// returns the answer the client gets.
pub async fn round_trip(setup: &mut Setup, request: Value, result: Value) -> Value {
    let id = request["id"].clone();
    let forwarded = forward(setup, request).await;
    setup
        .upstream
        .send(json!({"jsonrpc": "2.0", "id": forwarded["id"], "result": result}))
        .await;
    setup.client.recv_answer(id).await
}

/// The client sends `request` (a `tools/call`) and the proxy refuses it with an invalid params
/// error; returns the error's message.
pub async fn refusal(setup: &mut Setup, request: Value) -> String {
    let id = request["id"].clone();
    setup.client.send(request).await;
    let refused = setup.client.recv_answer(id).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    refused["error"]["message"].as_str().unwrap().to_owned()
}

/// The upstream answers request `id` with a text result, and the client's next message is
/// that answer, unchanged.
pub async fn answer_passes(setup: &mut Setup, id: u64, text: &str) {
    let answer = text_result(&json!(id), text);
    setup.upstream.send(answer.clone()).await;
    assert_eq!(setup.client.recv().await, answer);
}

/// A text result.
pub fn text_result(id: &Value, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}
