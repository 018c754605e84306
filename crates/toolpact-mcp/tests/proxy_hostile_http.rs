//! Hostile upstream servers over Streamable HTTP, as `tests/proxy_hostile.rs` has them over
//! stdio: a 50 MB tool list (as one JSON body, and as one SSE event), a flood of notifications
//! (on the GET stream, and within the SSE answer to a call), a connection dropped in the middle
//! of an answer, a call never answered, answers out of order. The proxy stays up, the client
//! gets errors that say what happened, nothing hangs, and a body far over the limit is never
//! held whole. And what an upstream on HTTP asks of the client reaches it with its parameters
//! as written.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod proxy_support;

use axum::body::{Body, Bytes};
use futures::StreamExt;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use proxy_support::{PATIENCE, WEATHER, call, text_result, weather_tool};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::io::{ReadHalf, WriteHalf};
use tokio::sync::{mpsc, oneshot};
use tokio::task::{JoinHandle, JoinSet};
use toolpact_mcp::{Proxy, ProxyOptions, Source};

// ------------------------------------------------------------------ the hostile server

/// A request the hostile server hands to the test, and the means to answer it. Dropping it
/// unanswered ends the HTTP exchange with a 500; keeping it unanswered holds the POST open.
struct Asked {
    request: Value,
    answer: oneshot::Sender<Response<Body>>,
}

impl Asked {
    fn method(&self) -> &str {
        self.request["method"].as_str().unwrap_or_default()
    }

    fn id(&self) -> &Value {
        &self.request["id"]
    }

    fn answer(self, response: Response<Body>) {
        let _ = self.answer.send(response);
    }
}

/// What the server's connections share.
struct Shared {
    asked: mpsc::UnboundedSender<Asked>,
    told: mpsc::UnboundedSender<Value>,
    /// The body of the first GET stream; later GETs get 405.
    events: Mutex<Option<Body>>,
}

/// A Streamable HTTP server on 127.0.0.1 that answers `initialize` and takes notifications
/// itself, and hands every other request to the test. Dropping it stops it, connections and
/// all.
struct Hostile {
    url: String,
    asked: mpsc::UnboundedReceiver<Asked>,
    told: mpsc::UnboundedReceiver<Value>,
    server: JoinHandle<()>,
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Hostile {
    /// A server whose GET stream, if any, is `events`.
    async fn start(events: Option<Body>) -> Hostile {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let (asked_tx, asked) = mpsc::unbounded_channel();
        let (told_tx, told) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            asked: asked_tx,
            told: told_tx,
            events: Mutex::new(events),
        });
        let server = tokio::spawn(async move {
            // Connections live in this task's set: aborting the task ends them all.
            let mut connections = JoinSet::new();
            loop {
                let (io, _) = listener.accept().await.unwrap();
                while connections.try_join_next().is_some() {}
                let shared = Arc::clone(&shared);
                let service = hyper::service::service_fn(move |request| {
                    let shared = Arc::clone(&shared);
                    async move { Ok::<_, Infallible>(handle(&shared, request).await) }
                });
                connections.spawn(
                    hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(io), service),
                );
            }
        });
        Hostile {
            url,
            asked,
            told,
            server,
        }
    }

    /// The next request for the test to answer.
    async fn next(&mut self) -> Asked {
        tokio::time::timeout(PATIENCE, self.asked.recv())
            .await
            .expect("no request came in time")
            .expect("the server stopped")
    }

    /// The next request of `method`; the proxy's own readings of the tool list that come
    /// first are answered with the weather tool.
    async fn next_method(&mut self, method: &str) -> Asked {
        loop {
            let asked = self.next().await;
            if asked.method() == method {
                return asked;
            }
            assert_eq!(asked.method(), "tools/list", "{}", asked.request);
            answer_list(asked);
        }
    }

    /// The next notification of `method` the proxy sent.
    async fn told(&mut self, method: &str) -> Value {
        loop {
            let told = tokio::time::timeout(PATIENCE, self.told.recv())
                .await
                .expect("no notification came in time")
                .expect("the server stopped");
            if told["method"] == method {
                return told;
            }
        }
    }
}

async fn handle(shared: &Shared, request: Request<hyper::body::Incoming>) -> Response<Body> {
    match *request.method() {
        Method::POST => {}
        Method::GET => {
            let events = shared.events.lock().unwrap().take();
            return match events {
                Some(events) => sse(events),
                None => status(StatusCode::METHOD_NOT_ALLOWED),
            };
        }
        _ => return status(StatusCode::OK),
    }
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let request: Value = serde_json::from_slice(&body).unwrap();
    if request["method"] == "initialize" {
        let mut response = json_body(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": {"name": "hostile", "version": "1"}
        }}));
        response
            .headers_mut()
            .insert("mcp-session-id", "hostile-session".parse().unwrap());
        return response;
    }
    if request.get("method").is_none() || request.get("id").is_none() {
        let _ = shared.told.send(request);
        return status(StatusCode::ACCEPTED);
    }
    let (answer, answered) = oneshot::channel();
    let _ = shared.asked.send(Asked { request, answer });
    answered
        .await
        .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR))
}

fn status(status: StatusCode) -> Response<Body> {
    Response::builder()
        .status(status)
        .body(Body::empty())
        .unwrap()
}

fn json_body(message: &Value) -> Response<Body> {
    Response::builder()
        .header(CONTENT_TYPE, "application/json")
        .body(Body::from(message.to_string()))
        .unwrap()
}

fn sse(events: Body) -> Response<Body> {
    Response::builder()
        .header(CONTENT_TYPE, "text/event-stream")
        .body(events)
        .unwrap()
}

/// One SSE event carrying `message`.
fn event(message: &Value) -> Bytes {
    format!("data: {message}\n\n").into()
}

/// An SSE body of `messages`, then the stream held open (a server's GET stream stays open).
fn events_then_open(messages: Vec<Value>) -> Body {
    let events = futures::stream::iter(messages).map(|m| Ok::<_, Infallible>(event(&m)));
    Body::from_stream(events.chain(futures::stream::pending()))
}

/// A body the test writes as it goes: each chunk is sent as it is written, an error drops the
/// connection, and the sender's `closed()` resolves once the connection is gone.
fn written() -> (mpsc::UnboundedSender<std::io::Result<Bytes>>, Body) {
    let (chunks, written) = mpsc::unbounded_channel();
    let body = futures::stream::unfold(written, |mut written| async move {
        written.recv().await.map(|chunk| (chunk, written))
    });
    (chunks, Body::from_stream(body))
}

fn the_server_dies() -> std::io::Result<Bytes> {
    Err(std::io::Error::other("the server died"))
}

fn answer_list(asked: Asked) {
    let result =
        json!({"jsonrpc": "2.0", "id": asked.id(), "result": {"tools": [weather_tool(WEATHER)]}});
    asked.answer(json_body(&result));
}

/// A `tools/list` answer to `id` of at least `size` bytes, as JSON (with its length when
/// `with_length`) or as one SSE event, made chunk by chunk as it is sent: the server never
/// holds more than one chunk.
fn huge_list(id: &Value, size: usize, as_event: bool, with_length: bool) -> Response<Body> {
    let tool = weather_tool(&"a".repeat(1000)).to_string();
    let chunk = Bytes::from(format!("{tool},").repeat(64));
    let (prefix, suffix) = if as_event {
        ("data: ", "\n\n")
    } else {
        ("", "")
    };
    let head = Bytes::from(format!(
        r#"{prefix}{{"jsonrpc":"2.0","id":{id},"result":{{"tools":["#
    ));
    let tail = Bytes::from(format!("{tool}]}}}}{suffix}"));
    let chunks = size.div_ceil(chunk.len());
    let length = head.len() + chunks * chunk.len() + tail.len();
    let body = futures::stream::iter(
        std::iter::once(head)
            .chain(std::iter::repeat_n(chunk, chunks))
            .chain(std::iter::once(tail)),
    )
    .map(Ok::<_, Infallible>);
    let mut response = sse(Body::from_stream(body));
    if !as_event {
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, "application/json".parse().unwrap());
        if with_length {
            headers.insert(CONTENT_LENGTH, length.into());
        }
    }
    response
}

// ------------------------------------------------------------------ the client

/// The client's end of a proxy that serves it over an in-memory pipe.
struct Client {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
    serving: JoinHandle<()>,
}

impl Client {
    async fn send(&mut self, message: Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.write.write_all(&line).await.unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
            .await
            .expect("no message came in time")
            .unwrap()
            .expect("the proxy closed the pipe");
        serde_json::from_str(&line).unwrap()
    }

    /// The answer to request `id`, skipping everything else.
    async fn answer(&mut self, id: u64) -> Value {
        loop {
            let message = self.recv().await;
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Leaves; the proxy must end.
    async fn leave(mut self) {
        self.write.shutdown().await.unwrap();
        tokio::time::timeout(PATIENCE, self.serving)
            .await
            .expect("the proxy did not end when its client left")
            .unwrap();
    }
}

/// A proxy with `options` in front of `upstream`, and the session opened as a client opens
/// it; the proxy's own reading of the tools is answered with the weather tool.
async fn open(upstream: &mut Hostile, options: ProxyOptions) -> Client {
    let proxy = Proxy::new(options).unwrap();
    let (client, proxy_side) = tokio::io::duplex(1 << 20);
    let source = Source::url(upstream.url.clone());
    let serving = tokio::spawn(async move {
        let pipe = tokio::io::split(proxy_side);
        proxy
            .serve_io(pipe, &source, std::future::pending())
            .await
            .unwrap();
    });
    let (read, write) = tokio::io::split(client);
    let mut client = Client {
        lines: BufReader::new(read).lines(),
        write,
        serving,
    };
    client
        .send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}
        }}))
        .await;
    let answer = client.answer(0).await;
    assert_eq!(
        answer["result"]["serverInfo"]["name"], "hostile",
        "{answer}"
    );
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let list = upstream.next().await;
    assert!(
        list.id()
            .as_str()
            .is_some_and(|id| id.starts_with("toolpact-proxy/")),
        "{}",
        list.request
    );
    answer_list(list);
    client
}

/// The client calls the weather tool for `city`; returns the call as the server has it.
async fn call_weather(client: &mut Client, upstream: &mut Hostile, id: u64, city: &str) -> Asked {
    client
        .send(call(id, "get_weather", json!({"city": city})))
        .await;
    upstream.next_method("tools/call").await
}

/// A call that goes through the proxy and back: the proxy is still up.
async fn a_call_goes_through(client: &mut Client, upstream: &mut Hostile, id: u64) {
    let asked = call_weather(client, upstream, id, "Kyiv").await;
    let answer = text_result(asked.id(), "Clear.");
    asked.answer(json_body(&answer));
    let answer = client.answer(id).await;
    assert_eq!(answer["result"]["content"][0]["text"], "Clear.", "{answer}");
}

/// The message of the JSON-RPC error that answered request `id`.
async fn error_message(client: &mut Client, id: u64) -> String {
    let answer = client.answer(id).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    answer["error"]["message"].as_str().unwrap().to_owned()
}

fn over_the_limit(limit: usize) -> String {
    format!(
        "the upstream server's answer is over toolpact proxy's limit of {limit} bytes; it was dropped"
    )
}

// ------------------------------------------------------------------ the tests

/// A 50 MB `tools/list` answer, as a JSON body with its length, or as one SSE event: either
/// way the client gets an error that says it was too large, and the session goes on.
async fn a_50_mb_tool_list_is_dropped(as_event: bool) {
    let mut upstream = Hostile::start(None).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    let asked = upstream.next().await;
    assert_eq!(asked.id(), 1);
    let answer = huge_list(asked.id(), 50_000_000, as_event, true);
    asked.answer(answer);
    assert_eq!(
        error_message(&mut client, 1).await,
        over_the_limit(16 << 20)
    );
    a_call_goes_through(&mut client, &mut upstream, 2).await;
    client.leave().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_50_mb_json_tool_list_is_dropped_with_an_error_that_says_so() {
    a_50_mb_tool_list_is_dropped(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_50_mb_sse_event_is_dropped_with_an_error_that_says_so() {
    a_50_mb_tool_list_is_dropped(true).await;
}

/// 5,000 `list_changed` and 5,000 progress notifications, one after the other.
fn flood() -> Vec<Value> {
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    let progress = |i: usize| json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": i}});
    (0..5_000)
        .flat_map(|i| [changed.clone(), progress(i)])
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_on_the_get_stream_reaches_the_client_and_costs_at_most_two_readings() {
    let mut upstream = Hostile::start(Some(events_then_open(flood()))).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    // The client reads the progress notifications as they come, in order, each once.
    let mut seen = 0;
    while seen < 5_000 {
        let message = client.recv().await;
        if message["method"] == "notifications/progress" {
            // The number as the server wrote it (an integer), in order.
            assert_eq!(message["params"]["progress"], json!(seen), "{message}");
            seen += 1;
        }
    }
    // Readings: one started by the first notification, one more for all that came after.
    // Each is answered; none comes once the last has been, within a generous wait.
    let mut readings = 0;
    while let Ok(asked) = tokio::time::timeout(Duration::from_secs(1), upstream.next()).await {
        assert_eq!(asked.method(), "tools/list", "{}", asked.request);
        readings += 1;
        answer_list(asked);
    }
    assert!((1..=2).contains(&readings), "{readings} readings");
    a_call_goes_through(&mut client, &mut upstream, 5).await;
    client.leave().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_request_reaches_the_server_whole_while_the_server_floods_the_proxy() {
    let mut upstream = Hostile::start(Some(events_then_open(flood()))).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    // 4 MB, read from the pipe piece by piece while the flood comes the other way.
    let uri = format!("file:///{}", "x".repeat(4_000_000));
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": uri}}),
        )
        .await;
    let reader = tokio::spawn(async move {
        let answer = client.answer(7).await;
        (client, answer)
    });
    let asked = upstream.next_method("resources/read").await;
    assert!(asked.request["params"]["uri"] == uri, "the request was cut");
    let answer = json!({"jsonrpc": "2.0", "id": asked.id(), "result": {"contents": []}});
    asked.answer(json_body(&answer));
    let (client, answer) = reader.await.unwrap();
    assert_eq!(answer["result"]["contents"], json!([]), "{answer}");
    client.leave().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_within_the_answer_to_a_call_reaches_the_client_before_the_result() {
    let mut upstream = Hostile::start(None).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    let asked = call_weather(&mut client, &mut upstream, 1, "Oslo").await;
    let mut answer = flood();
    answer.push(text_result(asked.id(), "Snow."));
    let events = futures::stream::iter(answer).map(|m| Ok::<_, Infallible>(event(&m)));
    asked.answer(sse(Body::from_stream(events)));
    let mut seen = 0;
    let result = loop {
        let message = client.recv().await;
        match message["method"].as_str() {
            Some("notifications/progress") => seen += 1,
            Some(_) => {}
            None => break message,
        }
    };
    assert_eq!(seen, 5_000);
    assert_eq!(result["id"], 1);
    assert_eq!(result["result"]["content"][0]["text"], "Snow.", "{result}");
    a_call_goes_through(&mut client, &mut upstream, 2).await;
    client.leave().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_broken_off_gets_an_error_that_says_so() {
    let mut upstream = Hostile::start(None).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}});
    // An SSE answer: a progress notification, then the connection drops; then one that ends
    // after the notification, without the response.
    for (id, cut) in [(1, true), (2, false)] {
        let asked = call_weather(&mut client, &mut upstream, id, "Accra").await;
        let (body, answer) = written();
        asked.answer(sse(answer));
        body.send(Ok(event(&progress))).unwrap();
        let notification = client.recv().await;
        assert_eq!(notification["method"], "notifications/progress");
        if cut {
            body.send(the_server_dies()).unwrap();
        } else {
            drop(body);
        }
        let expected = if cut {
            "the upstream server closed the connection before its answer was complete"
        } else {
            "the upstream server ended its answer without the response"
        };
        assert_eq!(error_message(&mut client, id).await, expected);
    }
    // A JSON answer that says it is 1,000 bytes long and stops after 20.
    let asked = call_weather(&mut client, &mut upstream, 3, "Lima").await;
    let (body, answer) = written();
    let mut response = json_body(&json!({}));
    *response.body_mut() = answer;
    response.headers_mut().insert(CONTENT_LENGTH, 1000.into());
    asked.answer(response);
    body.send(Ok(Bytes::from_static(br#"{"jsonrpc":"2.0","id":"#)))
        .unwrap();
    body.send(the_server_dies()).unwrap();
    assert_eq!(
        error_message(&mut client, 3).await,
        "the upstream server closed the connection before its answer was complete"
    );
    a_call_goes_through(&mut client, &mut upstream, 4).await;
    client.leave().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_gone_leaves_errors_not_a_hang() {
    let mut upstream = Hostile::start(None).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    let asked = call_weather(&mut client, &mut upstream, 1, "Baku").await;
    // The server stops with the call in its hands (the test holds it: were it dropped, the
    // server would answer 500).
    drop(upstream);
    assert_eq!(
        error_message(&mut client, 1).await,
        "the upstream server closed the connection before its answer was complete"
    );
    client
        .send(call(2, "get_weather", json!({"city": "Baku"})))
        .await;
    // A new connection is refused; a pooled one the server left behind may be reset first, or
    // take the request and then close before any answer.
    let failed = error_message(&mut client, 2).await;
    assert!(
        [
            "the HTTP request to the upstream server failed: connection refused: nothing listens at that address (is the server running, on that port?)",
            "the HTTP request to the upstream server failed: connection reset: the server dropped the connection (did it stop or restart?)",
            "the upstream server closed the connection before its answer was complete",
        ]
        .contains(&failed.as_str()),
        "{failed}"
    );
    drop(asked);
    client.leave().await;
}

/// A call the server holds open (the POST, or an SSE answer with nothing in it) times out; the
/// proxy cancels it, which ends the held request, and the session goes on.
async fn a_call_never_answered(as_event: bool) {
    let mut upstream = Hostile::start(None).await;
    let options = ProxyOptions {
        call_timeout: Duration::from_millis(300),
        ..ProxyOptions::default()
    };
    let mut client = open(&mut upstream, options).await;
    let held = call_weather(&mut client, &mut upstream, 1, "Baku").await;
    let id = held.id().clone();
    let ended: futures::future::BoxFuture<'static, ()> = if as_event {
        let (body, answer) = written();
        held.answer(sse(answer));
        Box::pin(async move { body.closed().await })
    } else {
        let mut answer = held.answer;
        Box::pin(async move { answer.closed().await })
    };
    let answer = client.answer(1).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "get_weather did not answer within 300 ms; toolpact proxy cancelled the call."
        ),
        "{text}"
    );
    let cancelled = upstream.told("notifications/cancelled").await;
    assert_eq!(cancelled["params"]["requestId"], id, "{cancelled}");
    tokio::time::timeout(PATIENCE, ended)
        .await
        .expect("the proxy kept the cancelled request open");
    a_call_goes_through(&mut client, &mut upstream, 2).await;
    client.leave().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_never_answered_times_out_is_cancelled_and_the_session_goes_on() {
    a_call_never_answered(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sse_answer_that_never_comes_times_out_is_cancelled_and_the_session_goes_on() {
    a_call_never_answered(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_out_of_order_reach_the_requests_they_answer() {
    const CITIES: [&str; 3] = ["Lagos", "Quito", "Perth"];
    let mut upstream = Hostile::start(None).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    for (id, city) in (1..).zip(CITIES) {
        client
            .send(call(id, "get_weather", json!({"city": city})))
            .await;
    }
    // All three are in the server's hands at once: the proxy does not wait for one answer
    // before it sends the next request.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(upstream.next_method("tools/call").await);
    }
    held.sort_by_key(|asked| asked.id().as_u64());
    // Answered last first, each once the one before has reached the client; the second in an
    // SSE answer, the others in JSON.
    while let Some(asked) = held.pop() {
        let id = asked.id().as_u64().unwrap();
        let city = &asked.request["params"]["arguments"]["city"];
        let answer = text_result(
            asked.id(),
            &format!("weather in {}", city.as_str().unwrap()),
        );
        let response = if id == 2 {
            sse(Body::from(event(&answer)))
        } else {
            json_body(&answer)
        };
        asked.answer(response);
        let answer = client.answer(id).await;
        let expected = format!("weather in {}", CITIES[usize::try_from(id).unwrap() - 1]);
        assert_eq!(answer["result"]["content"][0]["text"], expected, "{answer}");
    }
    client.leave().await;
}

// ------------------------------------------------------------------ memory

/// Set in the process the memory test starts, to run the measurement there.
#[cfg(target_os = "linux")]
const MEASURE: &str = "TOOLPACT_TEST_MEASURE_HELD_BODY";

/// A kB figure of /proc/self/status, in bytes.
#[cfg(target_os = "linux")]
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kb: usize = line.trim().trim_end_matches("kB").trim().parse().unwrap();
    kb * 1024
}

/// The proxy's limit lowered to 1 MiB, and answers of 200 MB streamed without a length (as
/// JSON, then as one SSE event), made by the server chunk by chunk: the client gets the error,
/// and the process's peak resident memory grows by a few times the limit, not by the body, nor
/// by rmcp's own default limit of 16 MiB. The measurement runs in a process of its own (this
/// test starts itself again), where no other test allocates at the same time.
#[cfg(target_os = "linux")]
#[test]
fn a_body_far_over_the_limit_is_refused_without_being_held() {
    if std::env::var_os(MEASURE).is_none() {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_body_far_over_the_limit_is_refused_without_being_held",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(MEASURE, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            text.contains("1 passed"),
            "the measurement did not run: {text}"
        );
        return;
    }
    const LIMIT: usize = 1 << 20;
    const BODY: usize = 200_000_000;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut upstream = Hostile::start(None).await;
        let options = ProxyOptions {
            max_message_bytes: LIMIT,
            ..ProxyOptions::default()
        };
        let mut client = open(&mut upstream, options).await;
        a_call_goes_through(&mut client, &mut upstream, 1).await;
        // Writing 5 to clear_refs resets the peak to the current figure; where it cannot be
        // written, the peak so far counts as growth, which errs on the safe side.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let before = status_bytes("VmRSS:");
        for (id, as_event) in [(2, false), (3, true)] {
            client
                .send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}))
                .await;
            let asked = upstream.next().await;
            let answer = huge_list(asked.id(), BODY, as_event, false);
            asked.answer(answer);
            let answer = client.answer(id).await;
            assert_eq!(
                answer["error"]["message"],
                over_the_limit(LIMIT),
                "{answer}"
            );
        }
        let growth = status_bytes("VmHWM:").saturating_sub(before);
        eprintln!("peak resident memory grew by {} KiB", growth / 1024);
        assert!(
            growth < 12 * LIMIT,
            "the peak resident memory grew by {growth} bytes for answers of {BODY} bytes over a limit of {LIMIT}"
        );
        a_call_goes_through(&mut client, &mut upstream, 4).await;
        client.leave().await;
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_server_asks_of_the_client_reaches_it_with_its_parameters_as_written() {
    let mut upstream = Hostile::start(None).await;
    let mut client = open(&mut upstream, ProxyOptions::default()).await;
    let asked = call_weather(&mut client, &mut upstream, 1, "Lima").await;
    let sampling = json!({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage", "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
        "maxTokens": 5, "temperature": 0.7
    }});
    let elicitation = json!({"jsonrpc": "2.0", "id": "e-1", "method": "elicitation/create", "params": {
        "message": "Your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
    }});
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
        "progressToken": "p", "progress": 0, "total": 3
    }});
    let answer = vec![
        sampling.clone(),
        elicitation.clone(),
        progress.clone(),
        text_result(asked.id(), "Mist."),
    ];
    let events = futures::stream::iter(answer).map(|m| Ok::<_, Infallible>(event(&m)));
    asked.answer(sse(Body::from_stream(events)));
    // rmcp's models would have made the temperature 0.699999988079071, given the elicitation
    // the mode `form`, and the progress 0.0. The proxy forwards each request on its own task,
    // so they may arrive in any order.
    let mut lines = Vec::new();
    for _ in 0..3 {
        let line = tokio::time::timeout(PATIENCE, client.lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        lines.push(line);
    }
    for expected in [sampling, elicitation, progress] {
        let line = lines
            .iter()
            .find(|line| {
                serde_json::from_str::<Value>(line).is_ok_and(|v| v["method"] == expected["method"])
            })
            .unwrap_or_else(|| panic!("no {} among {lines:?}", expected["method"]));
        assert_eq!(
            serde_json::from_str::<Value>(line).unwrap(),
            expected,
            "{line}"
        );
        if expected["method"] == "notifications/progress" {
            assert!(
                line.contains(r#""progress":0,"#) || line.contains(r#""progress":0}"#),
                "{line}"
            );
        }
    }
    assert_eq!(
        client.answer(1).await["result"]["content"][0]["text"],
        "Mist."
    );
    client.leave().await;
}
