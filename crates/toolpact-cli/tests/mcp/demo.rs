//! `toolpact serve --demo`: the gift-shop example server, with handlers, orders and widget.

use crate::common::bin;
use crate::common::mcp::Process;
use serde_json::json;
use toolpact_mcp::{ClientOptions, Connection, Source};

#[test]
fn the_demo_shop_suggests_orders_and_serves_its_widget() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("orders.sqlite");
    let db = db.to_str().unwrap();
    let source = Source::command(bin(), ["serve", "--demo", "--db", db]);
    toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        let tools = connection.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert!(names.contains(&"suggest_gifts"), "{names:?}");
        assert!(names.contains(&"create_order"), "{names:?}");

        // The handlers run: a real suggestion, then a real order for the server's customer.
        let suggested = connection
            .call_tool(
                "suggest_gifts",
                json!({"relationship": "friend", "interests": ["coffee"], "maxBudget": 60}),
            )
            .await
            .unwrap();
        assert!(!suggested.is_error, "{}", suggested.text_content());
        let gifts = suggested.structured.unwrap()["gifts"].clone();
        let gift_id = gifts[0]["id"].as_str().unwrap().to_owned();

        let ordered = connection
            .call_tool(
                "create_order",
                json!({
                    "giftId": gift_id,
                    "quantity": 1,
                    "recipientName": "Ana Silva",
                    "deliveryAddress": "Rua das Flores 12, 1200-195 Lisboa, Portugal"
                }),
            )
            .await
            .unwrap();
        assert!(!ordered.is_error, "{}", ordered.text_content());
        let orders = connection
            .call_tool("list_orders", json!({}))
            .await
            .unwrap();
        assert!(!orders.is_error, "{}", orders.text_content());
        assert!(
            orders.text_content().contains(&gift_id),
            "{}",
            orders.text_content()
        );
        connection.close().await;
    })
    .unwrap();
    assert!(
        std::path::Path::new(db).exists(),
        "the order database was not created"
    );

    // The widget that suggest_gifts points at is a resource of the server.
    let mut server = Process::start(&["serve", "--demo", "--db", db], &[]);
    server.request(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "demo-test", "version": "1"}
        }}),
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let listed = server.request(&json!({"jsonrpc": "2.0", "id": 1, "method": "resources/list"}));
    assert_eq!(
        listed["result"]["resources"][0]["uri"],
        "ui://widget/gifts.html"
    );
    let read = server.request(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": {"uri": "ui://widget/gifts.html"}}),
    );
    let contents = &read["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "text/html+skybridge");
    assert!(
        contents["text"].as_str().unwrap().contains("openai"),
        "{contents}"
    );
    assert_eq!(server.finish(), 0);
}
