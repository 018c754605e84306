//! Hostile upstream servers and clients: a flood of notifications, a 50 MB tool list, answers
//! out of order, a server that dies in the middle of a call or never answers. The proxy stays
//! up, the client gets errors that say what happened, and what the proxy holds stays bounded.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod proxy_support;

use proxy_support::{WEATHER, call, handshake, initialize, start, text_result, weather_tool};
use serde_json::json;
use std::time::Duration;
use toolpact_mcp::{Proxy, ProxyOptions, Source};

#[tokio::test]
async fn a_flood_of_list_changes_costs_at_most_two_readings() {
    let mut setup = start(ProxyOptions::default());
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}});
    let mut flood = Vec::new();
    for _ in 0..5_000 {
        flood.extend_from_slice(changed.to_string().as_bytes());
        flood.push(b'\n');
        flood.extend_from_slice(progress.to_string().as_bytes());
        flood.push(b'\n');
    }
    flood.pop();
    let (mut upstream, mut client) = (setup.upstream, setup.client);
    let sender = tokio::spawn(async move {
        upstream.send_raw(&flood).await;
        upstream
    });
    // The client reads the progress notifications as they come (the pipe would fill up
    // otherwise, which is the flood being held back, not lost).
    let mut seen = 0;
    while seen < 5_000 {
        let message = client.recv().await;
        if message["method"] == "notifications/progress" {
            seen += 1;
        }
    }
    let mut upstream = sender.await.unwrap();
    // Readings: one started by the first notification, one more for all that came after.
    let mut readings = 0;
    loop {
        let request = tokio::time::timeout(Duration::from_secs(2), upstream.recv()).await;
        let Ok(request) = request else { break };
        assert_eq!(request["method"], "tools/list", "{request}");
        readings += 1;
        upstream
            .send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": [weather_tool(WEATHER)]}}))
            .await;
    }
    assert!((1..=2).contains(&readings), "{readings} readings");
    // The session goes on.
    client
        .send(call(5, "get_weather", json!({"city": "Bern"})))
        .await;
    let forwarded = upstream.recv_method("tools/call").await;
    upstream.send(text_result(&forwarded["id"], "Fog.")).await;
    let answer = client.recv_answer(json!(5)).await;
    assert_eq!(answer["result"]["content"][0]["text"], "Fog.");
}

#[tokio::test]
async fn a_50_mb_tool_list_is_dropped_with_an_error_that_says_so() {
    let mut setup = start(ProxyOptions::default());
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    setup
        .client
        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    setup.upstream.recv_method("tools/list").await;
    let mut huge = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":["#.to_vec();
    let tool = weather_tool(&"a".repeat(1000)).to_string();
    while huge.len() < 50 * 1024 * 1024 {
        huge.extend_from_slice(tool.as_bytes());
        huge.push(b',');
    }
    huge.extend_from_slice(tool.as_bytes());
    huge.extend_from_slice(b"]}}");
    let size = huge.len();
    let (mut upstream, mut client) = (setup.upstream, setup.client);
    let sender = tokio::spawn(async move {
        upstream.send_raw(&huge).await;
        upstream
    });
    let answer = client.recv_answer(json!(1)).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        format!(
            "the upstream server's answer is {} bytes, over toolpact proxy's limit of 16777216 bytes; it was dropped",
            size + 1
        )
    );
    let mut upstream = sender.await.unwrap();
    // The proxy is still up.
    client
        .send(call(2, "get_weather", json!({"city": "Kyiv"})))
        .await;
    let forwarded = upstream.recv_method("tools/call").await;
    upstream.send(text_result(&forwarded["id"], "Clear.")).await;
    assert_eq!(
        client.recv_answer(json!(2)).await["result"]["content"][0]["text"],
        "Clear."
    );
}

#[tokio::test]
async fn answers_out_of_order_reach_the_requests_they_answer() {
    let mut setup = start(ProxyOptions::default());
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    for (id, city) in [(1, "Lagos"), (2, "Quito"), (3, "Perth")] {
        setup
            .client
            .send(call(id, "get_weather", json!({"city": city})))
            .await;
    }
    let mut requests = Vec::new();
    for _ in 0..3 {
        requests.push(setup.upstream.recv_method("tools/call").await);
    }
    for request in requests.iter().rev() {
        let city = request["params"]["arguments"]["city"].as_str().unwrap();
        setup
            .upstream
            .send(text_result(&request["id"], &format!("weather in {city}")))
            .await;
    }
    // An answer to nothing is dropped.
    setup.upstream.send(text_result(&json!(99), "stray")).await;
    for _ in 0..3 {
        let answer = setup.client.recv().await;
        let expected = match answer["id"].as_u64().unwrap() {
            1 => "weather in Lagos",
            2 => "weather in Quito",
            3 => "weather in Perth",
            other => panic!("answer to {other}"),
        };
        assert_eq!(answer["result"]["content"][0]["text"], expected);
    }
    assert!(setup.client.is_quiet(Duration::from_millis(200)).await);
}

#[tokio::test]
async fn a_server_that_dies_mid_call_leaves_errors_not_a_hang() {
    let mut setup = start(ProxyOptions::default());
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    setup
        .client
        .send(call(1, "get_weather", json!({"city": "Accra"})))
        .await;
    setup.upstream.recv_method("tools/call").await;
    setup.upstream.close().await;
    let answer = setup.client.recv_answer(json!(1)).await;
    assert_eq!(answer["error"]["code"], -32603);
    assert_eq!(
        answer["error"]["message"],
        "the upstream server test-upstream stopped while tools/call was waiting for its answer: it closed the connection"
    );
    // Later requests are answered at once.
    setup
        .client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    let answer = setup.client.recv_answer(json!(2)).await;
    assert!(
        answer["error"]["message"].as_str().unwrap().starts_with(
            "the upstream server test-upstream is no longer running (it closed the connection)"
        ),
        "{answer}"
    );
    let exited = setup.events("upstream-exited");
    assert_eq!(exited[0]["in_flight"], 1);
    let answered = setup.events("call-answered");
    assert_eq!(answered[0]["outcome"], "upstream-exited");
}

#[tokio::test]
async fn a_server_that_never_answers_a_call_gets_it_cancelled() {
    let mut setup = start(ProxyOptions {
        call_timeout: Duration::from_millis(300),
        ..ProxyOptions::default()
    });
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    setup
        .client
        .send(call(1, "get_weather", json!({"city": "Baku"})))
        .await;
    setup.upstream.recv_method("tools/call").await;
    let answer = setup.client.recv_answer(json!(1)).await;
    assert_eq!(answer["result"]["isError"], true);
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "get_weather did not answer within 300 ms; toolpact proxy cancelled the call."
        ),
        "{text}"
    );
    let cancelled = setup.upstream.recv_method("notifications/cancelled").await;
    assert_eq!(cancelled["params"]["requestId"], 1);
    // A late answer is dropped: the client got its answer already.
    setup.upstream.send(text_result(&json!(1), "late")).await;
    assert!(setup.client.is_quiet(Duration::from_millis(200)).await);
    assert_eq!(setup.events("call-answered")[0]["outcome"], "timed-out");
}

#[tokio::test]
async fn the_requests_in_flight_are_bounded() {
    let mut setup = start(ProxyOptions {
        max_in_flight: 3,
        ..ProxyOptions::default()
    });
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    for id in 1..=4 {
        setup
            .client
            .send(call(id, "get_weather", json!({"city": "Doha"})))
            .await;
    }
    let answer = setup.client.recv_answer(json!(4)).await;
    assert_eq!(answer["error"]["code"], -32000);
    assert_eq!(
        answer["error"]["message"],
        "toolpact proxy has 3 requests waiting for the upstream server's answers already; wait for some of them"
    );
}

#[tokio::test]
async fn what_a_client_must_not_send_is_refused_with_a_reason() {
    let mut setup = start(ProxyOptions::default());
    handshake(&mut setup, &[weather_tool(WEATHER)]).await;
    setup.client.send_raw(b"not json").await;
    assert_eq!(setup.client.recv().await["error"]["code"], -32700);
    setup
        .client
        .send(json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]))
        .await;
    let batch = setup.client.recv().await;
    assert!(
        batch["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("toolpact proxy does not take JSON-RPC batches"),
        "{batch}"
    );
    setup
        .client
        .send(json!({"jsonrpc": "2.0", "id": "toolpact-proxy/1", "method": "ping"}))
        .await;
    let own = setup.client.recv().await;
    assert_eq!(own["error"]["code"], -32600, "{own}");
    assert!(setup.upstream.is_quiet(Duration::from_millis(200)).await);
}

#[cfg(unix)]
#[tokio::test]
async fn a_child_server_that_exits_is_reported_with_its_status_and_standard_error() {
    let proxy = Proxy::new(ProxyOptions::default()).unwrap();
    let (client, proxy_client) = tokio::io::duplex(1 << 16);
    let source = Source::command(
        "sh",
        [
            "-c",
            "read line; echo 'cannot open the database' >&2; exit 3",
        ],
    );
    let serving = tokio::spawn(async move {
        proxy
            .serve_io(
                tokio::io::split(proxy_client),
                &source,
                std::future::pending(),
            )
            .await
    });
    let (read, mut write) = tokio::io::split(client);
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n")
        .await
        .unwrap();
    let mut lines = tokio::io::BufReader::new(read).lines();
    let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let answer: serde_json::Value = serde_json::from_str(&line).unwrap();
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the upstream server sh -c 'read line; echo '\\''cannot open the database'\\'' >&2; exit 3' stopped while initialize was waiting for its answer: it exited (exit status: 3)"),
        "{message}"
    );
    assert!(message.ends_with("cannot open the database"), "{message}");
    write.shutdown().await.unwrap();
    tokio::time::timeout(Duration::from_secs(20), serving)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_tool_list_answered_with_an_error_is_logged_with_the_servers_words() {
    let mut setup = start(ProxyOptions::default());
    initialize(&mut setup).await;
    let list = setup.upstream.recv_method("tools/list").await;
    setup
        .upstream
        .send(json!({"jsonrpc": "2.0", "id": list["id"], "error": {"code": -32603, "message": "the catalog database is locked"}}))
        .await;
    // A call waits for the list; with the list failed, it is refused rather than held.
    setup
        .client
        .send(call(1, "get_weather", json!({"city": "Bern"})))
        .await;
    let refused = setup.client.recv_answer(json!(1)).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let failed = setup.events("list-failed");
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(
        failed[0]["reason"],
        "the upstream server answered tools/list with an error: the catalog database is locked"
    );
}
