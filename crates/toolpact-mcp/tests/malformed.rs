//! Requests whose params do not have the protocol's shape get `-32602` with the reason, over
//! stdio and Streamable HTTP alike, not `-32601` "Method not found".

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod wire;

use common::shop_server;
use serde_json::{Value, json};
use wire::{Http, Pipe};

/// Each malformed request (`params` of a `tools/call`, or `None` for no params) with the
/// message it must get.
fn cases() -> Vec<(&'static str, Option<Value>, &'static str)> {
    vec![
        (
            "tools/call",
            Some(json!({"name": "whoami", "arguments": "{}"})),
            "`arguments` in the params of tools/call must be an object of the tool's arguments by name, not string",
        ),
        (
            "tools/call",
            Some(json!({"name": "whoami", "arguments": [1, 2]})),
            "`arguments` in the params of tools/call must be an object of the tool's arguments by name, not array",
        ),
        (
            "tools/call",
            Some(json!({"arguments": {}})),
            "the params of tools/call have no `name`",
        ),
        (
            "tools/call",
            Some(json!({"name": 7})),
            "`name` in the params of tools/call must be a string, not number",
        ),
        ("tools/call", None, "tools/call needs params with `name`"),
        (
            "resources/read",
            Some(json!({"uri": 3})),
            "`uri` in the params of resources/read must be a string, not number",
        ),
        (
            "prompts/get",
            Some(json!({})),
            "the params of prompts/get have no `name`",
        ),
    ]
}

fn check(answer: &Value, expected: &str) {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(answer["error"]["message"], expected, "{answer}");
}

#[tokio::test]
async fn malformed_params_get_invalid_params_over_stdio() {
    let (mut pipe, _) = Pipe::initialized(shop_server(), json!({})).await;
    for (id, (method, params, expected)) in cases().into_iter().enumerate() {
        let id = id as u64 + 1;
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        pipe.send(message).await;
        let answer = pipe.next().await;
        assert_eq!(answer["id"], id, "{answer}");
        check(&answer, expected);
    }
    // An unknown method is still "Method not found", and the session goes on.
    let (unknown, _) = pipe.request(100, "tools/dance", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let (called, _) = pipe
        .request(
            101,
            "tools/call",
            json!({"name": "whoami", "arguments": {}}),
        )
        .await;
    assert_eq!(called["result"]["content"][0]["text"], "nobody");
    pipe.close().await;
}

#[tokio::test]
async fn malformed_params_get_invalid_params_over_http() {
    let http = Http::initialized(shop_server()).await;
    for (id, (method, params, expected)) in cases().into_iter().enumerate() {
        let answer = http.request(id as u64 + 1, method, params).await;
        check(&answer, expected);
    }
    let called = http
        .request(
            100,
            "tools/call",
            Some(json!({"name": "whoami", "arguments": {}})),
        )
        .await;
    assert_eq!(called["result"]["content"][0]["text"], "nobody");
}
