//! MCP servers side by side under load, measured by one load client written in Rust: toolpact,
//! a plain rmcp server with the same `add` tool on the same transport (built here), and the
//! official TypeScript SDK's server (`scripts/bench-mcp/ts-server`, after `npm ci` there).
//!
//! ```text
//! cargo bench -p toolpact-mcp --bench mcp_load               # 3 s a measurement
//! cargo bench -p toolpact-mcp --bench mcp_load -- --seconds 1
//! cargo bench -p toolpact-mcp --bench mcp_load -- --quick    # a smoke run, a few seconds
//! ```
//!
//! Every throughput is the median of five turns, the servers taking turns within each (`--quick`:
//! one turn); `--seconds` is a server's time for one measure, split over its turns.
//!
//! Measured: stdio calls per second, sequential and with 32 in flight; HTTP calls per second at
//! 8 and 64 connections, stateful and stateless; the median latency of one call on a kept-alive
//! HTTP connection; the memory of an idle HTTP session (the server's resident set size before
//! and after opening 200 sessions). Each server runs as its own process; this program starts
//! itself as the toolpact and rmcp servers (`server toolpact|rmcp stdio|http [--stateless]`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool as RmcpTool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use toolpact::{CallContext, Registry, Tool, ToolError, ToolResult};
use toolpact_mcp::{HttpOptions, Server};

const PROTOCOL: &str = "2025-11-25";
const PIPELINE_DEPTH: usize = 32;
const IDLE_SESSIONS: usize = 200;

fn add_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"]
    })
}

// ---------------------------------------------------------------- the servers

fn toolpact_server() -> Server {
    let mut registry = Registry::new();
    registry
        .register(Tool::new("add", "Adds two numbers.", add_schema()))
        .unwrap();
    registry
        .set_handler("add", |args: Value, _ctx: CallContext| async move {
            let sum =
                args["a"].as_f64().unwrap_or_default() + args["b"].as_f64().unwrap_or_default();
            Ok::<_, ToolError>(ToolResult::text(sum.to_string()))
        })
        .unwrap();
    Server::new(registry).unwrap()
}

/// The same tool on rmcp alone.
#[derive(Clone)]
struct PlainAdd(Arc<RmcpTool>);

impl PlainAdd {
    fn new() -> PlainAdd {
        let Value::Object(schema) = add_schema() else {
            unreachable!()
        };
        PlainAdd(Arc::new(RmcpTool::new("add", "Adds two numbers.", schema)))
    }
}

impl ServerHandler for PlainAdd {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rmcp-add", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![(*self.0).clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let number = |key: &str| args.get(key).and_then(Value::as_f64);
        let (Some(a), Some(b)) = (number("a"), number("b")) else {
            return Err(ErrorData::invalid_params("a and b must be numbers", None));
        };
        Ok(CallToolResponse::Complete(CallToolResult::success(vec![
            ContentBlock::text((a + b).to_string()),
        ])))
    }
}

async fn serve(implementation: &str, transport: &str, stateless: bool) {
    match (implementation, transport) {
        ("toolpact", "stdio") => toolpact_server()
            .serve_stdio(toolpact_mcp::shutdown_signal())
            .await
            .unwrap(),
        ("toolpact", "http") => {
            let http = toolpact_server()
                .bind_http(HttpOptions {
                    addr: "127.0.0.1:0".parse().unwrap(),
                    stateless,
                    ..HttpOptions::default()
                })
                .await
                .unwrap();
            println!("{}", http.url());
            http.serve_until(toolpact_mcp::shutdown_signal())
                .await
                .unwrap();
        }
        ("rmcp", "stdio") => {
            let running = PlainAdd::new()
                .serve(rmcp::transport::stdio_pipes())
                .await
                .unwrap();
            let _ = running.waiting().await;
        }
        ("rmcp", "http") => {
            use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
            use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
            let handler = PlainAdd::new();
            let service = StreamableHttpService::new(
                move || Ok(handler.clone()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default().with_legacy_session_mode(!stateless),
            );
            let router = axum::Router::new().route_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            println!("http://{}/mcp", listener.local_addr().unwrap());
            use axum::serve::ListenerExt;
            let listener = listener.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, router)
                .with_graceful_shutdown(toolpact_mcp::shutdown_signal())
                .await
                .unwrap();
        }
        other => panic!("no server {other:?}"),
    }
}

// ---------------------------------------------------------------- the client

/// How to start each server.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Impl {
    Toolpact,
    Rmcp,
    TypeScript,
}

impl Impl {
    fn label(self) -> &'static str {
        match self {
            Impl::Toolpact => "toolpact",
            Impl::Rmcp => "plain rmcp",
            Impl::TypeScript => "TypeScript SDK",
        }
    }

    fn command(self, transport: &str, stateless: bool) -> Command {
        let mut command = match self {
            Impl::Toolpact | Impl::Rmcp => {
                let mut command = Command::new(std::env::current_exe().unwrap());
                let name = if self == Impl::Toolpact {
                    "toolpact"
                } else {
                    "rmcp"
                };
                command.args(["server", name, transport]);
                command
            }
            Impl::TypeScript => {
                let mut command = Command::new("node");
                command.arg(ts_server()).arg(transport);
                command
            }
        };
        if stateless {
            command.arg("--stateless");
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        command
    }
}

fn ts_server() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/bench-mcp/ts-server/server.mjs")
}

fn call(id: u64) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": id, "b": 2}}
    })
    .to_string()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-load","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

struct Stdio_ {
    _child: Child,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Stdio_ {
    async fn start(implementation: Impl) -> Stdio_ {
        let mut child = implementation.command("stdio", false).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut client = Stdio_ {
            _child: child,
            stdin,
            lines,
        };
        client.send(INITIALIZE).await;
        client.response().await;
        client.send(INITIALIZED).await;
        client
    }

    async fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.stdin.write_all(&bytes).await.unwrap();
    }

    /// The next response (notifications skipped).
    async fn response(&mut self) -> Value {
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .unwrap()
                .expect("the server answers");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message.get("id").is_some() {
                assert!(message.get("result").is_some(), "{message}");
                return message;
            }
        }
    }
}

/// A server over stdio with `depth` calls kept in flight, measured turn by turn: the server
/// runs for the whole measure, so that a server that warms up (the TypeScript SDK's, on a
/// JIT) is not started again for every turn.
struct StdioLoad {
    client: Stdio_,
    next_id: u64,
}

impl StdioLoad {
    async fn start(implementation: Impl, depth: usize) -> StdioLoad {
        let mut load = StdioLoad {
            client: Stdio_::start(implementation).await,
            next_id: 1,
        };
        for _ in 0..depth {
            load.send_next().await;
        }
        load
    }

    async fn send_next(&mut self) {
        self.client.send(&call(self.next_id)).await;
        self.next_id += 1;
    }

    /// Calls per second over about `seconds`: each answer is followed by a new call.
    async fn rate(&mut self, seconds: f64) -> f64 {
        let deadline = Instant::now() + Duration::from_secs_f64(seconds);
        let start = Instant::now();
        let mut done = 0u64;
        while Instant::now() < deadline {
            self.client.response().await;
            done += 1;
            self.send_next().await;
        }
        done as f64 / start.elapsed().as_secs_f64()
    }
}

struct HttpServer {
    _child: Child,
    url: String,
    pid: u32,
}

impl HttpServer {
    async fn start(implementation: Impl, stateless: bool) -> HttpServer {
        let mut child = implementation.command("http", stateless).spawn().unwrap();
        let pid = child.id().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let url = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server prints its URL");
        HttpServer {
            _child: child,
            url,
            pid,
        }
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

/// One kept-alive connection, with a session unless the server is stateless.
struct HttpClient {
    client: reqwest::Client,
    url: String,
    session: Option<String>,
}

impl HttpClient {
    async fn connect(url: &str, stateless: bool) -> HttpClient {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .tcp_nodelay(true)
            .build()
            .unwrap();
        let mut this = HttpClient {
            client,
            url: url.to_owned(),
            session: None,
        };
        if !stateless {
            let response = this.post(INITIALIZE).await;
            this.session = response
                .headers()
                .get("mcp-session-id")
                .map(|v| v.to_str().unwrap().to_owned());
            response.bytes().await.unwrap();
            this.post(INITIALIZED).await.bytes().await.unwrap();
        }
        this
    }

    async fn post(&self, body: &str) -> reqwest::Response {
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL)
            .body(body.to_owned());
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        request.send().await.unwrap()
    }

    async fn call(&self, id: u64) {
        let response = self.post(&call(id)).await;
        assert!(response.status().is_success(), "{}", response.status());
        let body = response.bytes().await.unwrap();
        assert!(
            body.windows(9).any(|w| w == b"\"result\":"),
            "{}",
            String::from_utf8_lossy(&body)
        );
    }
}

/// Calls per second over `connections` kept-alive connections.
async fn http_rate(url: &str, connections: usize, stateless: bool, seconds: f64) -> f64 {
    let (calls, elapsed) = http_calls(url, connections, stateless, seconds).await;
    calls as f64 / elapsed
}

/// The calls answered over `connections` kept-alive connections in about `seconds`, and the
/// seconds they took.
async fn http_calls(url: &str, connections: usize, stateless: bool, seconds: f64) -> (u64, f64) {
    let mut clients = Vec::new();
    for _ in 0..connections {
        clients.push(HttpClient::connect(url, stateless).await);
    }
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, client)| {
            tokio::spawn(async move {
                let mut done = 0u64;
                let mut id = (i as u64) << 32;
                while Instant::now() < deadline {
                    id += 1;
                    client.call(id).await;
                    done += 1;
                }
                done
            })
        })
        .collect();
    let mut done = 0;
    for task in tasks {
        done += task.await.unwrap();
    }
    (done, start.elapsed().as_secs_f64())
}

/// The median latency of one call on a kept-alive connection, in microseconds.
async fn http_latency(url: &str, calls: usize) -> f64 {
    let client = HttpClient::connect(url, false).await;
    for id in 0..20 {
        client.call(id).await;
    }
    let mut times = Vec::new();
    for id in 0..calls {
        let start = Instant::now();
        client.call(id as u64 + 100).await;
        times.push(start.elapsed());
    }
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e6
}

/// The server's memory per idle session, in KiB.
async fn memory_per_session(server: &HttpServer, sessions: usize) -> f64 {
    // One session first, so that what every server allocates once is not counted.
    let _warm = HttpClient::connect(&server.url, false).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = server.rss_kib();
    let mut open = Vec::new();
    for _ in 0..sessions {
        open.push(HttpClient::connect(&server.url, false).await);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = server.rss_kib();
    (after.saturating_sub(before)) as f64 / sessions as f64
}

/// How many turns a measure takes: in each, every server is measured for a share of the
/// time, one after the other, and the median of its turns is reported. Measured in one block
/// each, a server that happened to run while the machine was busy came out up to 40 % apart
/// from one measured a second later; in turns, each server meets the machine's moods alike.
const ROUNDS: usize = 5;

/// The median of `rounds` turns of `measure` for each implementation, the implementations
/// taking turns within each round.
async fn interleaved(
    impls: &[Impl],
    rounds: usize,
    mut measure: impl AsyncFnMut(usize) -> f64,
) -> Vec<(Impl, f64)> {
    let mut turns = vec![Vec::with_capacity(rounds); impls.len()];
    for _ in 0..rounds {
        for (i, turn) in turns.iter_mut().enumerate() {
            turn.push(measure(i).await);
        }
    }
    impls
        .iter()
        .zip(turns)
        .map(|(&implementation, mut values)| {
            values.sort_by(f64::total_cmp);
            (implementation, values[values.len() / 2])
        })
        .collect()
}

fn row(name: &str, values: &[(Impl, f64)], unit: &str) {
    let mut cells = vec![name.to_owned()];
    for (_, value) in values {
        cells.push(format!("{value:.0} {unit}"));
    }
    let toolpact = values
        .iter()
        .find(|(i, _)| *i == Impl::Toolpact)
        .map(|v| v.1);
    for (implementation, value) in values {
        if *implementation != Impl::Toolpact
            && let Some(toolpact) = toolpact
        {
            cells.push(format!("{:.2}×", toolpact / value));
        }
    }
    println!("| {} |", cells.join(" | "));
}

async fn run(seconds: f64, quick: bool) {
    let mut impls = vec![Impl::Toolpact, Impl::Rmcp];
    let ts_ready = ts_server()
        .parent()
        .unwrap()
        .join("node_modules/@modelcontextprotocol/sdk")
        .is_dir();
    if ts_ready && !quick {
        impls.push(Impl::TypeScript);
    } else if !quick {
        eprintln!(
            "the TypeScript SDK server is skipped: run `npm ci` in scripts/bench-mcp/ts-server"
        );
    }
    let mut header = vec!["measure".to_owned()];
    header.extend(impls.iter().map(|i| i.label().to_owned()));
    header.extend(
        impls
            .iter()
            .skip(1)
            .map(|i| format!("toolpact ÷ {}", i.label())),
    );
    println!("| {} |", header.join(" | "));
    println!("|{}", " --- |".repeat(header.len()));

    let rounds = if quick { 1 } else { ROUNDS };
    let slice = seconds / rounds as f64;
    for (name, depth) in [
        ("stdio, sequential", 1),
        ("stdio, 32 in flight", PIPELINE_DEPTH),
    ] {
        let mut loads = Vec::new();
        for &implementation in &impls {
            loads.push(StdioLoad::start(implementation, depth).await);
        }
        let values = interleaved(&impls, rounds, async |i| loads[i].rate(slice).await).await;
        row(name, &values, "calls/s");
    }
    let connection_counts: &[usize] = if quick { &[8] } else { &[8, 64] };
    for stateless in [false, true] {
        let mut servers = Vec::new();
        for &implementation in &impls {
            servers.push((
                implementation,
                HttpServer::start(implementation, stateless).await,
            ));
        }
        for &connections in connection_counts {
            let values = interleaved(&impls, rounds, async |i| {
                http_rate(&servers[i].1.url, connections, stateless, slice).await
            })
            .await;
            let mode = if stateless { "stateless" } else { "stateful" };
            row(
                &format!("HTTP {mode}, {connections} connections"),
                &values,
                "calls/s",
            );
        }
    }
    let mut latency = Vec::new();
    let mut memory = Vec::new();
    for &implementation in &impls {
        let server = HttpServer::start(implementation, false).await;
        latency.push((
            implementation,
            http_latency(&server.url, if quick { 50 } else { 500 }).await,
        ));
        memory.push((
            implementation,
            memory_per_session(&server, if quick { 20 } else { IDLE_SESSIONS }).await,
        ));
    }
    row("HTTP latency of one call (median)", &latency, "µs");
    row("memory per idle HTTP session", &memory, "KiB");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // reqwest is built without a TLS provider of its own; plain HTTP needs one installed all the same.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    if args.first().map(String::as_str) == Some("server") {
        let stateless = args.iter().any(|a| a == "--stateless");
        runtime.block_on(serve(&args[1], &args[2], stateless));
        return;
    }
    if args.first().map(String::as_str) == Some("load") {
        // `load URL CONNECTIONS SECONDS [--stateless]`: load one running server, for profiling
        // it or dividing its CPU time by the calls.
        let stateless = args.iter().any(|a| a == "--stateless");
        let (calls, elapsed) = runtime.block_on(http_calls(
            &args[1],
            args[2].parse().unwrap(),
            stateless,
            args[3].parse().unwrap(),
        ));
        println!("{:.0} calls/s, {calls} calls", calls as f64 / elapsed);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let seconds = args
        .iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 0.3 } else { 3.0 });
    runtime.block_on(run(seconds, quick));
}
