//! Streamable HTTP on 127.0.0.1: the security checks at the door, and whole sessions through
//! the client. Every server is stopped by its test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Customer, first_message, shop_server, shop_tools};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use toolpact_mcp::{ClientOptions, Connection, HttpOptions, ServeError, Server, Source};

/// A running server and what stops it.
struct Running {
    url: String,
    port: u16,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

impl Running {
    async fn start(server: Server, options: HttpOptions) -> Running {
        let options = HttpOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            ..options
        };
        let http = server.bind_http(options).await.unwrap();
        let url = http.url();
        let port = http.local_addr().port();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(http.serve_until(async {
            let _ = stopped.await;
        }));
        Running {
            url,
            port,
            stop: Some(stop),
            task,
        }
    }

    async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), &mut self.task)
            .await
            .expect("the server stops within its grace period")
            .unwrap()
            .unwrap();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn http_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;

/// POSTs `body` as an MCP client would, with extra headers.
async fn post(
    url: &str,
    body: impl Into<reqwest::Body>,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = http_client()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn origin_is_checked_on_every_request() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            allowed_origins: vec!["https://app.example.com".to_owned()],
            ..HttpOptions::default()
        },
    )
    .await;
    let own = format!("http://localhost:{}", running.port);
    for (origin, status) in [
        (None, 200),
        (Some(own.as_str()), 200),
        (Some("https://app.example.com"), 200),
        (Some("https://evil.example"), 403),
        (Some("http://localhost:1"), 403),
        (Some("not an origin"), 403),
    ] {
        let headers: Vec<(&str, &str)> = origin.map(|o| ("origin", o)).into_iter().collect();
        let response = post(&running.url, INITIALIZE, &headers).await;
        assert_eq!(response.status().as_u16(), status, "origin {origin:?}");
    }
    // A request on another Host (DNS rebinding) is refused by the session layer.
    let response = post(&running.url, INITIALIZE, &[("host", "evil.example")]).await;
    assert_eq!(response.status().as_u16(), 403);
    running.stop().await;
}

#[tokio::test]
async fn a_bearer_token_is_required_when_the_server_has_one() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            bearer_token: Some("s3cret".to_owned()),
            ..HttpOptions::default()
        },
    )
    .await;
    let missing = post(&running.url, INITIALIZE, &[]).await;
    assert_eq!(missing.status().as_u16(), 401);
    assert_eq!(missing.headers()["www-authenticate"], "Bearer");
    let wrong = post(
        &running.url,
        INITIALIZE,
        &[("authorization", "Bearer s3creT")],
    )
    .await;
    assert_eq!(wrong.status().as_u16(), 401);
    let right = post(
        &running.url,
        INITIALIZE,
        &[("authorization", "Bearer s3cret")],
    )
    .await;
    assert_eq!(right.status().as_u16(), 200);

    let options = ClientOptions::default();
    let refused = Connection::open(&Source::url(&running.url), &options)
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "{}: initialize failed: the server requires authorization (WWW-Authenticate: Bearer); give it a bearer token or the header it expects",
            running.url
        )
    );
    let source = Source::Url {
        url: running.url.clone(),
        headers: Vec::new(),
        bearer_token: Some("s3cret".to_owned()),
    };
    let fetched = toolpact_mcp::fetch_tools(&source, &options).await.unwrap();
    assert_eq!(fetched.tools, shop_tools());
    running.stop().await;
}

#[tokio::test]
async fn bodies_are_limited_and_must_be_json() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            max_body_bytes: 1024,
            ..HttpOptions::default()
        },
    )
    .await;
    let padding = "x".repeat(2000);
    let big = INITIALIZE.replace("\"test\"", &format!("\"{padding}\""));
    assert_eq!(
        post(&running.url, big.clone(), &[]).await.status().as_u16(),
        413
    );
    // Without a Content-Length (streamed), the limit holds all the same.
    let chunks: Vec<Result<String, std::io::Error>> =
        vec![Ok(big[..1000].to_owned()), Ok(big[1000..].to_owned())];
    let streamed = reqwest::Body::wrap_stream(futures::stream::iter(chunks));
    assert_eq!(
        post(&running.url, streamed, &[]).await.status().as_u16(),
        413
    );

    let response = post(&running.url, "{\"jsonrpc\": \"2.0\", \"id\": 1,", &[]).await;
    assert_eq!(response.status().as_u16(), 400);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], -32700);
    assert_eq!(error["jsonrpc"], "2.0");

    let response = post(&running.url, "[1, 2]", &[]).await;
    assert_eq!(response.status().as_u16(), 400);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], -32600);
    running.stop().await;
}

#[tokio::test]
async fn sessions_list_and_call_over_http() {
    let server = shop_server().with_call_data(|info| {
        info.header("x-customer")
            .map(|name| Arc::new(Customer(name.to_owned())) as _)
    });
    let running = Running::start(server, HttpOptions::default()).await;
    let source = Source::Url {
        url: running.url.clone(),
        headers: vec![("X-Customer".to_owned(), "ada".to_owned())],
        bearer_token: None,
    };
    let connection = Connection::open(&source, &ClientOptions::default())
        .await
        .unwrap();
    assert_eq!(connection.list_tools().await.unwrap(), shop_tools());

    let invalid = connection
        .call_tool(
            "suggest_gifts",
            json!({"recipient": "my brother", "budget": "forty"}),
        )
        .await
        .unwrap();
    assert!(invalid.is_error);
    assert!(
        invalid
            .text_content()
            .contains("`budget` must be an integer, not the string \"forty\""),
        "{}",
        invalid.text_content()
    );
    let unknown = connection
        .call_tool("delete_everything", json!({}))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Some(-32602));
    let me = connection.call_tool("whoami", json!({})).await.unwrap();
    assert_eq!(me.text_content(), "ada");
    connection.close().await;
    running.stop().await;
}

#[tokio::test]
async fn a_stopped_server_releases_its_port() {
    let running = Running::start(shop_server(), HttpOptions::default()).await;
    let url = running.url.clone();
    // An open session (with its SSE stream) must not hold the shutdown up.
    let connection = Connection::open(&Source::url(&url), &ClientOptions::default())
        .await
        .unwrap();
    running.stop().await;
    let after = http_client().post(&url).body(INITIALIZE).send().await;
    assert!(
        after.is_err(),
        "the port still answers after the server stopped"
    );
    drop(connection);
}

#[tokio::test]
async fn client_errors_say_what_failed() {
    // Nothing listens on the port of a server that has just stopped.
    let running = Running::start(shop_server(), HttpOptions::default()).await;
    let url = running.url.clone();
    running.stop().await;
    let refused = Connection::open(&Source::url(&url), &ClientOptions::default())
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "{url}: initialize failed: connection refused: nothing listens at that address (is the server running, on that port?)"
        )
    );
    let source = Source::Url {
        url: url.clone(),
        headers: Vec::new(),
        bearer_token: Some("s3cr\net".to_owned()),
    };
    let bad_token = Connection::open(&source, &ClientOptions::default())
        .await
        .unwrap_err();
    assert_eq!(
        bad_token.to_string(),
        "the bearer token cannot be sent in an HTTP header: it has a line break or another control character"
    );
}

#[tokio::test]
async fn a_client_token_is_sent_without_surrounding_whitespace() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            bearer_token: Some("s3cret".to_owned()),
            ..HttpOptions::default()
        },
    )
    .await;
    let source = Source::Url {
        url: running.url.clone(),
        headers: Vec::new(),
        bearer_token: Some("  s3cret\n".to_owned()),
    };
    let fetched = toolpact_mcp::fetch_tools(&source, &ClientOptions::default())
        .await
        .unwrap();
    assert_eq!(fetched.tools, shop_tools());
    running.stop().await;
}

#[tokio::test]
async fn a_server_token_that_could_never_match_is_refused_at_start() {
    for (token, message) in [
        (
            " s3cret\n",
            "the bearer token has whitespace at its start or end (8 characters in all); HTTP drops it from the header, so no request could ever match: remove it",
        ),
        (
            "s3\tcret",
            "the bearer token has a character a header cannot carry as is (a control character or a non-ASCII character); use printable ASCII only",
        ),
        ("", "the bearer token is empty"),
    ] {
        let options = HttpOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            bearer_token: Some(token.to_owned()),
            ..HttpOptions::default()
        };
        assert_eq!(options.validate().unwrap_err().to_string(), message);
        let error = shop_server().bind_http(options).await.unwrap_err();
        assert_eq!(error.to_string(), message);
    }
}

/// Posts `body` on a session (or none) and returns the status, the headers and the JSON-RPC
/// message of the answer (SSE or JSON).
async fn exchange(
    url: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, Value) {
    let response = post(url, body.to_owned(), headers).await;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let message = first_message(&text);
    (status, headers, message)
}

/// Initializes a session by hand and returns its id.
async fn open_session(url: &str) -> String {
    let (status, headers, message) = exchange(url, INITIALIZE, &[]).await;
    assert_eq!(status, 200, "{message}");
    let id = headers["mcp-session-id"].to_str().unwrap().to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let response = post(url, initialized, &[("mcp-session-id", &id)]).await;
    assert_eq!(response.status().as_u16(), 202);
    id
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

#[tokio::test]
async fn sessions_live_while_a_stream_is_open_and_close_when_idle() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            session_idle_timeout: Duration::from_millis(300),
            ..HttpOptions::default()
        },
    )
    .await;
    // The client keeps its GET stream open: the session outlives the idle timeout.
    let connection = Connection::open(&Source::url(&running.url), &ClientOptions::default())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(connection.list_tools().await.unwrap(), shop_tools());

    // A session with no stream open and no request closes after the timeout.
    let id = open_session(&running.url).await;
    let session = [("mcp-session-id", id.as_str())];
    let (status, _, message) = exchange(&running.url, LIST, &session).await;
    assert_eq!(status, 200, "{message}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (status, _, _) = exchange(&running.url, LIST, &session).await;
    assert_eq!(status, 404);
    connection.close().await;
    running.stop().await;
}

#[tokio::test]
async fn sessions_beyond_the_limit_are_refused_until_one_ends() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            max_sessions: 1,
            ..HttpOptions::default()
        },
    )
    .await;
    let id = open_session(&running.url).await;
    let refused = post(&running.url, INITIALIZE, &[]).await;
    assert_eq!(refused.status().as_u16(), 503);
    assert_eq!(refused.headers()["retry-after"], "10");

    // DELETE ends the session (204); an unknown or ended session is 404.
    let delete = |id: String| {
        let url = running.url.clone();
        async move {
            http_client()
                .delete(&url)
                .header("mcp-session-id", id)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(delete(id.clone()).await, 204);
    assert_eq!(delete(id).await, 404);
    assert_eq!(delete("no-such-session".to_owned()).await, 404);
    let _ = open_session(&running.url).await;
    running.stop().await;
}

#[tokio::test]
async fn a_live_session_refuses_a_second_initialize() {
    let running = Running::start(shop_server(), HttpOptions::default()).await;
    let id = open_session(&running.url).await;
    let (status, _, message) = exchange(&running.url, INITIALIZE, &[("mcp-session-id", &id)]).await;
    assert_eq!(status, 400);
    assert_eq!(message["id"], 1);
    assert_eq!(message["error"]["code"], -32600);
    assert_eq!(
        message["error"]["message"],
        "Invalid Request: this session is initialized already; to start another one, send initialize without Mcp-Session-Id"
    );
    running.stop().await;
}

#[tokio::test]
async fn ping_is_answered_in_every_protocol_version() {
    let running = Running::start(shop_server(), HttpOptions::default()).await;
    let id = open_session(&running.url).await;
    let ping = r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
    for version in ["2025-06-18", "2025-11-25"] {
        let (status, _, message) = exchange(
            &running.url,
            ping,
            &[("mcp-session-id", &id), ("mcp-protocol-version", version)],
        )
        .await;
        assert_eq!(status, 200, "{version}: {message}");
        assert_eq!(message, json!({"jsonrpc": "2.0", "id": 5, "result": {}}));
    }
    // 2026-07-28 has no sessions: every request carries its version.
    let ping = json!({
        "jsonrpc": "2.0", "id": 6, "method": "ping",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"}
        }}
    });
    let (status, _, message) = exchange(
        &running.url,
        &ping.to_string(),
        &[("mcp-protocol-version", "2026-07-28")],
    )
    .await;
    assert_eq!(status, 200, "{message}");
    assert_eq!(message, json!({"jsonrpc": "2.0", "id": 6, "result": {}}));
    running.stop().await;
}

#[tokio::test]
async fn allowed_origins_get_cors_answers() {
    let running = Running::start(
        shop_server(),
        HttpOptions {
            allowed_origins: vec!["https://app.example.com".to_owned()],
            ..HttpOptions::default()
        },
    )
    .await;
    let preflight = http_client()
        .request(reqwest::Method::OPTIONS, &running.url)
        .header("origin", "https://app.example.com")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type, mcp-session-id, authorization",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.status().as_u16(), 204);
    let headers = preflight.headers();
    assert_eq!(
        headers["access-control-allow-origin"],
        "https://app.example.com"
    );
    assert_eq!(headers["access-control-allow-methods"], "GET, POST, DELETE");
    assert_eq!(
        headers["access-control-allow-headers"],
        "content-type, mcp-session-id, authorization"
    );
    let (status, headers, _) = exchange(
        &running.url,
        INITIALIZE,
        &[("origin", "https://app.example.com")],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        headers["access-control-allow-origin"],
        "https://app.example.com"
    );
    assert!(
        headers["access-control-expose-headers"]
            .to_str()
            .unwrap()
            .contains("Mcp-Session-Id")
    );
    // An origin that is not allowed gets no preflight answer.
    let refused = http_client()
        .request(reqwest::Method::OPTIONS, &running.url)
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    assert!(
        !refused
            .headers()
            .contains_key("access-control-allow-origin")
    );
    running.stop().await;
}

#[tokio::test]
async fn a_host_that_is_not_allowed_is_told_how_to_allow_it() {
    let running = Running::start(shop_server(), HttpOptions::default()).await;
    let response = post(&running.url, INITIALIZE, &[("host", "192.0.2.7:8000")]).await;
    assert_eq!(response.status().as_u16(), 403);
    assert_eq!(
        response.text().await.unwrap(),
        "Forbidden: this server does not answer to the Host \"192.0.2.7:8000\" (DNS-rebinding protection); a server reached under another name or address than localhost must allow it (allowed hosts; `toolpact serve --allow-host 192.0.2.7`)"
    );
    running.stop().await;
}

#[tokio::test]
async fn calls_on_a_kept_alive_connection_are_not_held_by_nagle() {
    let running = Running::start(shop_server(), HttpOptions::default()).await;
    let connection = Connection::open(&Source::url(&running.url), &ClientOptions::default())
        .await
        .unwrap();
    let mut times = Vec::new();
    for _ in 0..15 {
        let start = std::time::Instant::now();
        connection.call_tool("whoami", json!({})).await.unwrap();
        times.push(start.elapsed());
    }
    times.sort();
    // Without TCP_NODELAY each call waits for the client's delayed ACK: about 40 ms.
    assert!(
        times[times.len() / 2] < Duration::from_millis(25),
        "median {:?} of {times:?}",
        times[times.len() / 2]
    );
    connection.close().await;
    running.stop().await;
}

#[tokio::test]
async fn slow_headers_are_cut_off_and_bound_the_pending_connections() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let running = Running::start(
        shop_server(),
        HttpOptions {
            header_read_timeout: Duration::from_millis(800),
            max_pending_connections: 2,
            ..HttpOptions::default()
        },
    )
    .await;
    let addr = format!("127.0.0.1:{}", running.port);
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
            .await
            .unwrap();
        slow.push(stream);
    }
    // Both slow connections hold the pending slots: a whole request waits until they are cut.
    let start = std::time::Instant::now();
    let response = post(&running.url, INITIALIZE, &[]).await;
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        start.elapsed() >= Duration::from_millis(400),
        "answered after {:?} while both pending slots were held",
        start.elapsed()
    );
    for mut stream in slow {
        let mut rest = Vec::new();
        // Closed (end of input) or reset: either way, not held open.
        let _closed = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
            .await
            .expect("the server closes a connection whose headers never end");
    }
    running.stop().await;
}

/// Reads one HTTP response with a `Content-Length` from a raw connection; returns its status
/// line and body.
async fn read_response(stream: &mut tokio::net::TcpStream) -> (String, String) {
    use tokio::io::AsyncReadExt;
    let mut bytes = Vec::new();
    let mut byte = [0u8; 1];
    while !bytes.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).await.unwrap();
        assert_eq!(n, 1, "the connection ended in the head: {bytes:?}");
        bytes.push(byte[0]);
    }
    let head = String::from_utf8(bytes).unwrap();
    let length: usize = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().unwrap())
        })
        .expect("a Content-Length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await.unwrap();
    let status = head.lines().next().unwrap().to_owned();
    (status, String::from_utf8(body).unwrap())
}

#[tokio::test]
async fn every_request_of_a_kept_alive_connection_has_its_headers_timed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let timeout = Duration::from_millis(500);
    let running = Running::start(
        shop_server(),
        HttpOptions {
            header_read_timeout: timeout,
            ..HttpOptions::default()
        },
    )
    .await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(format!("127.0.0.1:{}", running.port))
        .await
        .unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let (status, answer) = read_response(&mut stream).await;
    assert!(status.contains("200"), "{status}: {answer}");
    // A connection idle between requests is not cut: the timer is for headers under way.
    tokio::time::sleep(timeout * 2).await;
    stream.write_all(request.as_bytes()).await.unwrap();
    let (status, answer) = read_response(&mut stream).await;
    assert!(status.contains("200"), "{status}: {answer}");
    // Half a header after two good requests: cut after the timeout, not before.
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
        .await
        .unwrap();
    let start = std::time::Instant::now();
    let mut rest = Vec::new();
    let _closed = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
        .await
        .expect("the server closes a connection whose second request's headers never end");
    assert!(
        start.elapsed() >= timeout - Duration::from_millis(50),
        "closed after {:?}, before the timeout",
        start.elapsed()
    );
    running.stop().await;
}

#[tokio::test]
async fn a_long_answer_is_not_cut_by_the_header_timer() {
    // The standalone GET stream of a session stays open past the header timeout.
    let running = Running::start(
        shop_server(),
        HttpOptions {
            header_read_timeout: Duration::from_millis(300),
            ..HttpOptions::default()
        },
    )
    .await;
    let session = open_session(&running.url).await;
    let response = http_client()
        .get(&running.url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut response = response;
    let cut = tokio::time::timeout(Duration::from_millis(1200), response.chunk()).await;
    // Nothing to read (or a keep-alive comment), but not the end of the stream.
    if let Ok(next) = cut {
        assert!(
            matches!(next, Ok(Some(_))),
            "the stream ended within the header timeout: {next:?}"
        );
    }
    running.stop().await;
}

#[tokio::test]
async fn stateless_servers_answer_without_sessions_and_in_json() {
    for json_response in [false, true] {
        let running = Running::start(
            shop_server(),
            HttpOptions {
                stateless: true,
                json_response,
                ..HttpOptions::default()
            },
        )
        .await;
        let response = post(&running.url, INITIALIZE, &[]).await;
        assert_eq!(response.status().as_u16(), 200);
        assert!(!response.headers().contains_key("mcp-session-id"));
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(
            content_type.starts_with("application/json"),
            json_response,
            "{content_type}"
        );
        let (status, _, message) = exchange(
            &running.url,
            LIST,
            &[("mcp-protocol-version", "2025-11-25")],
        )
        .await;
        assert_eq!(status, 200, "{message}");
        assert_eq!(message["result"]["tools"].as_array().unwrap().len(), 2);

        let connection = Connection::open(&Source::url(&running.url), &ClientOptions::default())
            .await
            .unwrap();
        assert_eq!(connection.list_tools().await.unwrap(), shop_tools());
        let me = connection.call_tool("whoami", json!({})).await.unwrap();
        assert_eq!(me.text_content(), "nobody");
        connection.close().await;
        running.stop().await;
    }
}
