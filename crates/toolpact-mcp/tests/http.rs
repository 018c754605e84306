//! Streamable HTTP on 127.0.0.1: the security checks at the door, and whole sessions through
//! the client. Every server is stopped by its test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Customer, shop_server, shop_tools};
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
