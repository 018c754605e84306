//! The proxy over Streamable HTTP on both sides: a client reaches the proxy's HTTP front, the
//! proxy reaches a toolpact server at its URL; the gates work as over stdio, and the front
//! keeps the HTTP checks (a bearer token here).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{shop_server, shop_tools};
use serde_json::json;
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
