//! The proxy over Streamable HTTP on both sides: a client reaches the proxy's HTTP front, the
//! proxy reaches a toolpact server at its URL; the gates work as over stdio, and the front
//! keeps the HTTP checks (a bearer token here).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Events, first_message, shop_server, shop_tools};
use serde_json::{Value, json};
use toolpact_mcp::{
    ClientError, ClientOptions, Connection, HttpOptions, Proxy, ProxyOptions, Source,
};

fn local() -> HttpOptions {
    HttpOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..HttpOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_client_reaches_an_http_server_through_the_proxy() {
    let server = shop_server().bind_http(local()).await.unwrap();
    let server_url = server.url();
    tokio::spawn(server.serve_until(std::future::pending()));

    let proxy = Proxy::new(ProxyOptions {
        deny: vec!["whoami".to_owned()],
        ..ProxyOptions::default()
    })
    .unwrap();
    let front = proxy
        .bind_http(
            Source::url(server_url),
            HttpOptions {
                bearer_token: Some("s3cret".to_owned()),
                ..local()
            },
        )
        .await
        .unwrap();
    let front_url = front.url();
    tokio::spawn(front.serve_until(std::future::pending()));

    // Without the token, the front refuses.
    let refused = Connection::open(&Source::url(front_url.clone()), &ClientOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ClientError::Connection { .. }),
        "{refused}"
    );
    assert!(
        refused.to_string().contains("requires authorization"),
        "{refused}"
    );

    let source = Source::Url {
        url: front_url,
        headers: Vec::new(),
        bearer_token: Some("s3cret".to_owned()),
    };
    let connection = Connection::open(&source, &ClientOptions::default())
        .await
        .unwrap();
    assert_eq!(
        connection.server_info().unwrap().name.as_deref(),
        Some("shop")
    );
    let tools = connection.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["suggest_gifts"]);
    assert_eq!(tools[0], shop_tools()[0]);
    let result = connection
        .call_tool(
            "suggest_gifts",
            json!({"recipient": "my aunt", "budget": 30}),
        )
        .await
        .unwrap();
    assert_eq!(result.structured.unwrap()["gifts"][0]["price"], 25);
    let invalid = connection
        .call_tool("suggest_gifts", json!({"recipient": "my aunt"}))
        .await
        .unwrap();
    assert!(invalid.is_error);
    let withheld = connection.call_tool("whoami", json!({})).await.unwrap_err();
    assert!(
        withheld
            .to_string()
            .contains("Tool whoami is withheld by toolpact proxy: the policy denies it"),
        "{withheld}"
    );
    connection.close().await;
}

/// POSTs one JSON-RPC message to an MCP endpoint and returns the session id and the message
/// of the answer (SSE or JSON), read as raw JSON: no model of the protocol in between.
async fn post_raw(url: &str, body: Value, session: Option<&str>) -> (Option<String>, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let response = request.send().await.unwrap();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let message = first_message(&text);
    (session, message)
}

/// The proxy's HTTP front in front of the stdio server `tests/fixtures/FIXTURE` (a shell
/// script); returns the front's URL.
async fn front_of(fixture: &str) -> String {
    let fixture = format!("{}/tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let proxy = Proxy::new(ProxyOptions::default()).unwrap();
    let front = proxy
        .bind_http(Source::command("sh", [fixture]), local())
        .await
        .unwrap();
    let url = front.url();
    tokio::spawn(front.serve_until(std::future::pending()));
    url
}

/// The raw `initialize` request of a client of `version` with `capabilities`.
fn initialize(version: &str, capabilities: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": capabilities,
            "clientInfo": {"name": "test", "version": "1"}
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tasks_capability_and_execution_field_reach_an_http_client() {
    let url = front_of("tasks-and-execution.sh").await;
    let (session, answer) = post_raw(&url, initialize("2025-11-25", json!({})), None).await;
    let session = session.expect("the front opens a session");
    let result = &answer["result"];
    assert_eq!(
        result["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{answer}"
    );
    assert_eq!(result["protocolVersion"], "2025-11-25", "{answer}");
    assert_eq!(result["serverInfo"]["name"], "tasks", "{answer}");
    assert!(result.get("_meta").is_none(), "{answer}");
    post_raw(
        &url,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        Some(&session),
    )
    .await;

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let (_, answer) = post_raw(&url, list, Some(&session)).await;
    let tools = answer["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "{answer}");
    assert_eq!(tools[0]["name"], "add");
    assert_eq!(tools[0]["execution"], json!({"taskSupport": "optional"}));
    assert!(answer["result"].get("_meta").is_none(), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_to_an_http_client_go_out_as_the_server_wrote_them() {
    let url = front_of("asks-the-client.sh").await;
    let capabilities = json!({"sampling": {}, "elicitation": {}});
    let (session, _) = post_raw(&url, initialize("2025-06-18", capabilities), None).await;
    let session = session.expect("the front opens a session");
    let stream = reqwest::Client::new()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let mut events = Events {
        response: stream,
        buffer: String::new(),
    };
    post_raw(
        &url,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        Some(&session),
    )
    .await;

    // The proxy forwards each request of the server as it comes, each on its own task: the
    // two may reach the client in either order.
    let (first, second) = (events.next().await, events.next().await);
    let (sampling, elicitation) = if first["method"] == "sampling/createMessage" {
        (first, second)
    } else {
        (second, first)
    };
    assert_eq!(sampling["method"], "sampling/createMessage", "{sampling}");
    assert_eq!(
        sampling["params"],
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 5, "temperature": 0.7}),
        "no progress token, the temperature as written: {sampling}"
    );
    assert_eq!(elicitation["method"], "elicitation/create", "{elicitation}");
    assert_eq!(
        elicitation["params"],
        json!({"message": "Your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}),
        "no mode added: {elicitation}"
    );

    // The answer reaches the server under the id the server gave its request.
    let answer = json!({"jsonrpc": "2.0", "id": sampling["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m"
    }});
    post_raw(&url, answer, Some(&session)).await;
    let log = events.next().await;
    assert_eq!(log["method"], "notifications/message", "{log}");
    let data = log["params"]["data"].as_str().unwrap();
    let quoted: Value =
        serde_json::from_str(data.strip_prefix("answer to s-1: ").unwrap()).unwrap();
    assert_eq!(quoted["content"]["text"], "Hello", "{data}");
    assert_eq!(quoted["model"], "m", "{data}");
}
