//! `toolpact proxy` under load, measured side by side in one run by one load client written in
//! Rust: the plain rmcp `add` server of `mcp_load`, reached directly and through the proxy.
//!
//! ```text
//! cargo bench -p toolpact-mcp --bench proxy_load                 # 3 s a measurement
//! cargo bench -p toolpact-mcp --bench proxy_load -- --seconds 1
//! cargo build --release -p toolpact-cli && \
//!   cargo bench -p toolpact-mcp --bench proxy_load -- --toolpact target/release/toolpact
//! ```
//!
//! With `--toolpact PATH`, the memory over HTTP is measured a second time on that binary's
//! `toolpact proxy --http`, the command users run.
//!
//! Measured: the median latency of a sequential stdio call, direct and proxied, the two clients
//! taking turns call by call (and what the proxy adds); stdio calls per second with 32 in
//! flight, direct and proxied (and the ratio); the proxy's memory over HTTP with 100 tools and
//! 1,000 calls in flight, resident and anonymous, idle and at its peak (`VmHWM`, and the
//! anonymous part read while the calls are in flight). The proxy gets
//! `toolpact_mcp::MIMALLOC_SETTINGS` unless the environment sets them already. Each server and the proxy run as processes of
//! their own; this program starts itself as the `add` server (`server add`), as the slow
//! server with 100 tools (`server slow`), and as the proxy (`proxy stdio|http -- …`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool as RmcpTool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use toolpact_mcp::{HttpOptions, Proxy, ProxyOptions, Source};

// The `toolpact` binary's allocator (crates/toolpact-cli/src/main.rs), with the settings the
// command gives its proxy: the proxy measured here is the proxy users run, whose memory depends
// on how the allocator keeps what threads free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PIPELINE_DEPTH: usize = 32;
const SLOW_TOOLS: usize = 100;
const IN_FLIGHT: usize = 1_000;
/// How long the slow server takes to answer a call: long enough for every call to be in
/// flight at once.
const SLOW_CALL: Duration = Duration::from_secs(3);

fn add_schema() -> serde_json::Map<String, Value> {
    let Value::Object(schema) = json!({
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"]
    }) else {
        unreachable!()
    };
    schema
}

// ---------------------------------------------------------------- the servers

/// The `add` tool on rmcp alone, as in `mcp_load`.
#[derive(Clone)]
struct PlainAdd(Arc<RmcpTool>);

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

/// The `add` server.
fn add_server() -> PlainAdd {
    PlainAdd(Arc::new(RmcpTool::new(
        "add",
        "Adds two numbers and returns the sum.",
        add_schema(),
    )))
}

/// `add` and 99 more tools, each answering after [`SLOW_CALL`].
#[derive(Clone)]
struct ManyTools(Arc<Vec<RmcpTool>>);

impl ServerHandler for ManyTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items((*self.0).clone()))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        tokio::time::sleep(SLOW_CALL).await;
        Ok(CallToolResponse::Complete(CallToolResult::success(vec![
            ContentBlock::text("3"),
        ])))
    }
}

fn many_tools() -> ManyTools {
    let tools = (0..SLOW_TOOLS)
        .map(|i| {
            let name = if i == 0 {
                "add".to_owned()
            } else {
                format!("add_{i:03}")
            };
            RmcpTool::new(name, "Adds two numbers and returns the sum.", add_schema())
        })
        .collect();
    ManyTools(Arc::new(tools))
}

async fn serve(kind: &str) {
    let running = match kind {
        "add" => add_server().serve(rmcp::transport::stdio_pipes()).await,
        "slow" => {
            let running = many_tools()
                .serve(rmcp::transport::stdio_pipes())
                .await
                .unwrap();
            let _ = running.waiting().await;
            return;
        }
        other => panic!("no server {other:?}"),
    }
    .unwrap();
    let _ = running.waiting().await;
}

async fn proxy(front: &str, upstream: &[String]) {
    let proxy = Proxy::new(ProxyOptions::default()).unwrap();
    let source = Source::command(upstream[0].clone(), upstream[1..].to_vec());
    match front {
        "http" => {
            let http = proxy
                .bind_http(
                    source,
                    HttpOptions {
                        addr: "127.0.0.1:0".parse().unwrap(),
                        ..HttpOptions::default()
                    },
                )
                .await
                .unwrap();
            println!("{}", http.url());
            http.serve_until(toolpact_mcp::shutdown_signal())
                .await
                .unwrap();
        }
        other => panic!("no front {other:?}"),
    }
}

// ---------------------------------------------------------------- the client

fn self_command(args: &[&str]) -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    if args.first() == Some(&"proxy") {
        // As the `toolpact` command runs its proxy (crates/toolpact-cli/src/main.rs): a
        // setting given in the environment is kept, so that others can be measured.
        for (name, value) in toolpact_mcp::MIMALLOC_SETTINGS {
            if std::env::var_os(name).is_none() {
                command.env(name, value);
            }
        }
    }
    command
}

/// The `add` server, directly or through the proxy.
fn add_command(proxied: bool) -> Command {
    let me = std::env::current_exe().unwrap();
    let me = me.to_str().unwrap();
    if proxied {
        self_command(&["proxy", "stdio", "--", me, "server", "add"])
    } else {
        self_command(&["server", "add"])
    }
}

fn call(id: u64) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": id, "b": 2}}
    })
    .to_string()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"proxy-load","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const PROTOCOL: &str = "2025-11-25";

struct StdioClient {
    _child: Child,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl StdioClient {
    async fn start(proxied: bool) -> StdioClient {
        let mut child = add_command(proxied).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut client = StdioClient {
            _child: child,
            stdin,
            lines,
        };
        client.send(INITIALIZE).await;
        client.response().await;
        client.send(INITIALIZED).await;
        // The first call waits for the proxy's own reading of the tool list.
        client.send(&call(u64::MAX / 2)).await;
        client.response().await;
        client
    }

    async fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.stdin.write_all(&bytes).await.unwrap();
    }

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

/// The median latency of one call at a time, in microseconds, direct and proxied: the two
/// clients take turns, one call each, so that whatever else the machine does in the meantime
/// weighs on both alike.
async fn stdio_latency(seconds: f64) -> (f64, f64) {
    let mut direct = StdioClient::start(false).await;
    let mut proxied = StdioClient::start(true).await;
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let (mut direct_times, mut proxied_times) = (Vec::new(), Vec::new());
    let mut id = 1;
    while Instant::now() < deadline {
        for (client, times) in [
            (&mut direct, &mut direct_times),
            (&mut proxied, &mut proxied_times),
        ] {
            let start = Instant::now();
            client.send(&call(id)).await;
            client.response().await;
            times.push(start.elapsed());
        }
        id += 1;
    }
    (median_micros(direct_times), median_micros(proxied_times))
}

fn median_micros(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e6
}

/// Calls per second with `depth` in flight.
async fn stdio_rate(proxied: bool, depth: usize, seconds: f64) -> f64 {
    let mut client = StdioClient::start(proxied).await;
    let mut id = 1;
    for _ in 0..depth {
        client.send(&call(id)).await;
        id += 1;
    }
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut done = 0u64;
    while Instant::now() < deadline {
        client.response().await;
        done += 1;
        client.send(&call(id)).await;
        id += 1;
    }
    done as f64 / start.elapsed().as_secs_f64()
}

/// The proxy's memory idle and at its peak, over HTTP with [`IN_FLIGHT`] calls in flight to
/// the slow server with [`SLOW_TOOLS`] tools; also how long all the calls took.
/// The proxy's memory over HTTP: this program's proxy, or with `toolpact` the given `toolpact`
/// binary's (`toolpact proxy --http`, as users run it, with its own allocator settings).
async fn http_memory(toolpact: Option<&str>) -> (Memory, Memory, Duration) {
    let me = std::env::current_exe().unwrap();
    let me = me.to_str().unwrap();
    let (child, url) = match toolpact {
        None => {
            let mut child = self_command(&["proxy", "http", "--", me, "server", "slow"])
                .spawn()
                .unwrap();
            let url = BufReader::new(child.stdout.take().unwrap())
                .lines()
                .next_line()
                .await
                .unwrap()
                .expect("the proxy prints its URL");
            (child, url)
        }
        Some(toolpact) => {
            let mut child = Command::new(toolpact)
                .args(["proxy", "--http", "127.0.0.1:0", "--", me, "server", "slow"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .unwrap();
            // `toolpact: proxy serving at URL`, on stderr.
            let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
            let url = loop {
                let line = lines
                    .next_line()
                    .await
                    .unwrap()
                    .expect("toolpact proxy prints its URL");
                if let Some((_, url)) = line.split_once("serving at ") {
                    break url.trim().to_owned();
                }
            };
            (child, url)
        }
    };
    let pid = child.id().unwrap();
    // reqwest is built without a default TLS provider; plain HTTP needs one all the same.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(IN_FLIGHT)
        .tcp_nodelay(true)
        .build()
        .unwrap();
    let post = |body: String, session: Option<String>| {
        let mut request = client
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL)
            .body(body);
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request.send()
    };
    let response = post(INITIALIZE.to_owned(), None).await.unwrap();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    response.bytes().await.unwrap();
    post(INITIALIZED.to_owned(), session.clone())
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let tools = post(list.to_owned(), session.clone())
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(
        tools.windows(7).any(|w| w == b"add_099"),
        "{}",
        String::from_utf8_lossy(&tools)
    );
    let rss = |field: &str| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .unwrap()
            / 1024.0
    };
    let idle = Memory {
        resident: rss("VmRSS:"),
        anonymous: rss("RssAnon:"),
    };
    let mut anonymous_peak = idle.anonymous;
    let start = Instant::now();
    let calls: Vec<_> = (0..IN_FLIGHT as u64)
        .map(|i| {
            let response = post(call(i + 10), session.clone());
            tokio::spawn(async move {
                let body = response.await.unwrap().bytes().await.unwrap();
                assert!(
                    body.windows(9).any(|w| w == b"\"result\":"),
                    "{}",
                    String::from_utf8_lossy(&body)
                );
            })
        })
        .collect();
    // The kernel keeps the peak of resident memory (`VmHWM`) but not of its anonymous part:
    // that is read every 20 ms while the calls are in flight.
    let mut calls = futures::future::join_all(calls);
    loop {
        tokio::select! {
            done = &mut calls => {
                for call in done {
                    call.unwrap();
                }
                break;
            }
            () = tokio::time::sleep(Duration::from_millis(20)) => {
                anonymous_peak = anonymous_peak.max(rss("RssAnon:"));
            }
        }
    }
    let took = start.elapsed();
    let peak = Memory {
        resident: rss("VmHWM:"),
        anonymous: anonymous_peak.max(rss("RssAnon:")),
    };
    (idle, peak, took)
}

/// A process's memory in MiB: all that is resident, and its anonymous part (what it allocated,
/// without the pages of its program file, which are shared and which the kernel can read again).
#[derive(Clone, Copy)]
struct Memory {
    resident: f64,
    anonymous: f64,
}

async fn run(seconds: f64, toolpact: Option<&str>) {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("| measure | direct | through the proxy | proxy ÷ direct |");
    println!("| --- | --- | --- | --- |");
    let (direct, proxied) = stdio_latency(seconds).await;
    println!(
        "| stdio, sequential: median latency | {direct:.0} µs | {proxied:.0} µs (+{:.0} µs) | {:.2}× |",
        proxied - direct,
        proxied / direct
    );
    let direct = stdio_rate(false, PIPELINE_DEPTH, seconds).await;
    let proxied = stdio_rate(true, PIPELINE_DEPTH, seconds).await;
    println!(
        "| stdio, {PIPELINE_DEPTH} in flight | {direct:.0} calls/s | {proxied:.0} calls/s | {:.2}× |",
        proxied / direct
    );
    let mut proxies = vec![("proxy memory", None)];
    if let Some(toolpact) = toolpact {
        proxies.push(("`toolpact proxy` memory", Some(toolpact)));
    }
    for (what, toolpact) in proxies {
        let (idle, peak, took) = http_memory(toolpact).await;
        println!(
            "| HTTP, {SLOW_TOOLS} tools, {IN_FLIGHT} calls in flight: {what}, resident (anonymous) | | {:.1} ({:.1}) MiB idle, {:.1} ({:.1}) MiB at peak (all answered in {:.1} s) | |",
            idle.resident,
            idle.anonymous,
            peak.resident,
            peak.anonymous,
            took.as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("proxy") && args[1] == "stdio" {
        // As `toolpact proxy` runs it.
        let proxy = Proxy::new(ProxyOptions::default()).unwrap();
        let source = Source::command(args[3].clone(), args[4..].to_vec());
        proxy.run_stdio(&source).unwrap();
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    match args.first().map(String::as_str) {
        Some("server") => runtime.block_on(serve(&args[1])),
        Some("proxy") => runtime.block_on(proxy(&args[1], &args[3..])),
        _ => {
            let mut seconds = 3.0;
            let mut toolpact = None;
            let mut rest = args.iter();
            while let Some(arg) = rest.next() {
                match arg.as_str() {
                    "--seconds" => {
                        seconds = rest.next().and_then(|s| s.parse().ok()).unwrap_or(seconds);
                    }
                    "--toolpact" => toolpact = rest.next().map(String::as_str),
                    _ => {}
                }
            }
            runtime.block_on(run(seconds, toolpact));
        }
    }
}
