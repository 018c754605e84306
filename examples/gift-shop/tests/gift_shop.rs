//! The gift shop through the registry, as a server drives it: every tool dispatched with the
//! customer in the call context, ids that must come from `suggest_gifts`, arguments refused
//! before a handler runs, orders kept in SQLite across restarts and per customer, outputs
//! checked against their schemas, definitions that pass the linter, and the widget.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use gift_shop::{Error, GiftShop, User, WIDGET_MIME, WIDGET_URI, widget_html};
use serde_json::{Value, json};
use std::any::Any;
use std::sync::Arc;
use toolpact::{
    Catalog, DispatchOptions, Dispatched, ExportOptions, Outcome, Registry, Target, parse_call,
};
use toolpact::{check_coherence, dispatch_blocking};
use toolpact_lint::{Settings, Severity};

fn options(user: Option<&str>) -> DispatchOptions {
    DispatchOptions {
        data: user.map(|id| Arc::new(User::new(id)) as Arc<dyn Any + Send + Sync>),
        ..DispatchOptions::default()
    }
}

/// Dispatches an MCP `tools/call` for `user` (none when `None`).
fn call(registry: &Registry, user: Option<&str>, name: &str, arguments: Value) -> Dispatched {
    let call = parse_call(&json!({"name": name, "arguments": arguments}), None, "").unwrap();
    dispatch_blocking(registry, &call, &options(user))
}

/// The structured content of a successful call; fails with the result text otherwise.
fn ok(dispatched: Dispatched) -> Value {
    assert_eq!(
        dispatched.outcome,
        Outcome::Ok,
        "{}",
        dispatched.result.text_content()
    );
    assert!(!dispatched.result.is_error);
    let structured = dispatched.result.structured.clone().unwrap();
    // Older clients read the same JSON as text.
    let text: Value = serde_json::from_str(&dispatched.result.text_content()).unwrap();
    assert_eq!(text, structured);
    structured
}

/// The error text of a call the handler refused.
fn refused(dispatched: Dispatched) -> String {
    assert_eq!(
        dispatched.outcome,
        Outcome::HandlerError,
        "{}",
        dispatched.result.text_content()
    );
    assert!(dispatched.result.is_error);
    dispatched.result.text_content()
}

fn coffee_gifts(registry: &Registry) -> Vec<Value> {
    let found = ok(call(
        registry,
        Some("ana"),
        "suggest_gifts",
        json!({"relationship": "friend", "interests": ["coffee"], "maxBudget": 60, "occasion": "birthday"}),
    ));
    found["gifts"].as_array().unwrap().clone()
}

fn order_arguments(gift_id: &str) -> Value {
    json!({
        "giftId": gift_id,
        "quantity": 2,
        "recipientName": "Rui Costa",
        "deliveryAddress": "Rua das Flores 12, 1200-195 Lisboa, Portugal",
        "giftMessage": "  Happy birthday, Rui!  ",
        "giftWrap": true
    })
}

#[test]
fn every_tool_dispatches_through_the_registry() {
    let shop = GiftShop::in_memory().unwrap();
    let registry = shop.registry();
    assert_eq!(
        registry
            .tools()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>(),
        [
            "suggest_gifts",
            "get_gift_details",
            "create_order",
            "list_orders"
        ]
    );
    check_coherence(&registry).unwrap();

    let gifts = coffee_gifts(&registry);
    assert_eq!(gifts.len(), 5);
    for gift in &gifts {
        assert!(gift["price"].as_f64().unwrap() <= 60.0, "{gift}");
        assert_eq!(gift["currency"], "EUR");
        assert!(
            gift["link"]
                .as_str()
                .unwrap()
                .starts_with("https://gifts.example/")
        );
        assert!(
            gift["reason"]
                .as_str()
                .unwrap()
                .starts_with("Matches coffee")
        );
    }
    let chosen = &gifts[0];
    let id = chosen["id"].as_str().unwrap();

    let details = ok(call(
        &registry,
        Some("ana"),
        "get_gift_details",
        json!({"giftId": id}),
    ));
    assert_eq!(details["id"], chosen["id"]);
    assert_eq!(details["title"], chosen["title"]);
    assert_eq!(details["price"], chosen["price"]);
    assert!(
        details["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("coffee"))
    );
    assert!(
        details["occasions"]
            .as_array()
            .unwrap()
            .contains(&json!("birthday"))
    );

    let order = ok(call(
        &registry,
        Some("ana"),
        "create_order",
        order_arguments(id),
    ));
    assert_eq!(order["orderId"], "ORD-000001");
    assert_eq!(order["giftId"], chosen["id"]);
    assert_eq!(order["title"], chosen["title"]);
    assert_eq!(order["quantity"], 2);
    assert_eq!(order["giftWrap"], true);
    assert_eq!(order["giftMessage"], "Happy birthday, Rui!");
    assert_eq!(order["status"], "placed");
    let unit = chosen["price"].as_f64().unwrap();
    let total = order["total"].as_f64().unwrap();
    assert!((total - (unit + 3.5) * 2.0).abs() < 1e-9, "{order}");

    let listed = ok(call(&registry, Some("ana"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([order]));
}

#[test]
fn ids_that_did_not_come_from_suggest_gifts_are_refused_readably() {
    let registry = GiftShop::in_memory().unwrap().registry();
    for (tool, arguments) in [
        ("get_gift_details", json!({"giftId": "0f21b5f0-5a3a-4d1b"})),
        ("create_order", order_arguments("0f21b5f0-5a3a-4d1b")),
    ] {
        let message = refused(call(&registry, Some("ana"), tool, arguments));
        assert_eq!(
            message,
            "There is no gift with id \"0f21b5f0-5a3a-4d1b\" in the shop. Gift ids come only from \
             suggest_gifts results: call suggest_gifts first, then pass the `id` of the gift the \
             user picked, exactly as it was returned (for example \"KITC-004\").",
            "{tool}"
        );
    }
    // Nothing was ordered.
    let listed = ok(call(&registry, Some("ana"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([]));
}

#[test]
fn ids_are_matched_without_regard_to_case() {
    let registry = GiftShop::in_memory().unwrap().registry();
    let gifts = coffee_gifts(&registry);
    let id = gifts[0]["id"].as_str().unwrap();
    let details = ok(call(
        &registry,
        None,
        "get_gift_details",
        json!({"giftId": id.to_lowercase()}),
    ));
    assert_eq!(details["id"], id);
}

#[test]
fn invalid_arguments_never_reach_a_handler() {
    let registry = GiftShop::in_memory().unwrap().registry();
    let id = coffee_gifts(&registry)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut bad_quantity = order_arguments(&id);
    bad_quantity["quantity"] = json!(0);
    let mut text_quantity = order_arguments(&id);
    text_quantity["quantity"] = json!("2");
    let mut extra = order_arguments(&id);
    extra["userId"] = json!("someone-else");
    let mut no_such_day = order_arguments(&id);
    no_such_day["deliveryDate"] = json!("2026-02-30");
    let mut missing = order_arguments(&id);
    missing.as_object_mut().unwrap().remove("giftId");
    let cases = [
        (
            "create_order",
            bad_quantity,
            "`quantity` must be at least 1",
        ),
        (
            "create_order",
            text_quantity,
            "`quantity` must be an integer",
        ),
        (
            "create_order",
            extra,
            "`userId` is not an argument of this tool",
        ),
        ("create_order", no_such_day, "`deliveryDate`"),
        ("create_order", missing, "`giftId` is required"),
        (
            "suggest_gifts",
            json!({"relationship": "bro", "interests": ["gaming"], "maxBudget": 50}),
            "`relationship` must be one of",
        ),
        (
            "suggest_gifts",
            json!({"relationship": "friend", "interests": [], "maxBudget": 50}),
            "`interests`",
        ),
        (
            "suggest_gifts",
            json!({"relationship": "friend", "interests": ["tea"], "maxBudget": 50, "maxResults": 11}),
            "`maxResults` must be at most 10",
        ),
        (
            "list_orders",
            json!({"limit": 0}),
            "`limit` must be at least 1",
        ),
    ];
    for (tool, arguments, expected) in cases {
        let dispatched = call(&registry, Some("ana"), tool, arguments.clone());
        assert!(
            matches!(dispatched.outcome, Outcome::InvalidArguments { .. }),
            "{tool} {arguments}: {:?}",
            dispatched.outcome
        );
        let message = dispatched.result.text_content();
        assert!(
            message.starts_with(&format!("Invalid arguments for {tool}")),
            "{message}"
        );
        assert!(message.contains(expected), "{expected}: {message}");
    }
    // None of the create_order calls stored anything.
    let listed = ok(call(&registry, Some("ana"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([]));
}

#[test]
fn order_tools_need_a_customer_from_the_context() {
    let registry = GiftShop::in_memory().unwrap().registry();
    let id = coffee_gifts(&registry)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for user in [None, Some("  ")] {
        for (tool, arguments) in [
            ("create_order", order_arguments(&id)),
            ("list_orders", json!({})),
        ] {
            let message = refused(call(&registry, user, tool, arguments));
            assert_eq!(
                message,
                format!(
                    "{tool} needs a signed-in customer, and nobody is signed in to the gift shop in \
                     this conversation. Ask the user to sign in to the gift shop, then try again."
                )
            );
        }
    }
    // Suggestions and details need nobody.
    ok(call(
        &registry,
        None,
        "get_gift_details",
        json!({"giftId": id}),
    ));
}

#[test]
fn customers_see_only_their_own_orders() {
    let registry = GiftShop::in_memory().unwrap().registry();
    let gifts = coffee_gifts(&registry);
    let first = gifts[0]["id"].as_str().unwrap();
    let second = gifts[1]["id"].as_str().unwrap();
    let ana_1 = ok(call(
        &registry,
        Some("ana"),
        "create_order",
        order_arguments(first),
    ));
    let ben = ok(call(
        &registry,
        Some("ben"),
        "create_order",
        order_arguments(second),
    ));
    let ana_2 = ok(call(
        &registry,
        Some("ana"),
        "create_order",
        order_arguments(second),
    ));

    let listed = ok(call(&registry, Some("ana"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([ana_2, ana_1]), "newest first");
    let listed = ok(call(&registry, Some("ben"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([ben]));
    let listed = ok(call(&registry, Some("cleo"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([]));
    let listed = ok(call(
        &registry,
        Some("ana"),
        "list_orders",
        json!({"limit": 1}),
    ));
    assert_eq!(listed["orders"], json!([ana_2]));
}

#[test]
fn delivery_dates_default_to_the_earliest_and_are_checked() {
    let registry = GiftShop::in_memory().unwrap().registry();
    let id = coffee_gifts(&registry)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let first = ok(call(
        &registry,
        Some("ana"),
        "create_order",
        order_arguments(&id),
    ));
    let earliest = first["deliveryDate"].as_str().unwrap().to_owned();
    assert_eq!(earliest.len(), 10, "{earliest}");

    let mut same_day = order_arguments(&id);
    same_day["deliveryDate"] = json!(earliest);
    let second = ok(call(&registry, Some("ana"), "create_order", same_day));
    assert_eq!(second["deliveryDate"], json!(earliest));

    let mut past = order_arguments(&id);
    past["deliveryDate"] = json!("2020-01-01");
    let message = refused(call(&registry, Some("ana"), "create_order", past));
    assert!(
        message.starts_with(&format!(
            "deliveryDate 2020-01-01 is in the past: the earliest delivery is {earliest}"
        )),
        "{message}"
    );
    let mut far = order_arguments(&id);
    far["deliveryDate"] = json!("2999-01-01");
    let message = refused(call(&registry, Some("ana"), "create_order", far));
    assert!(message.contains("is too far ahead"), "{message}");
}

#[test]
fn orders_survive_reopening_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("orders.sqlite");
    let placed = {
        let registry = GiftShop::open(&path).unwrap().registry();
        let id = coffee_gifts(&registry)[0]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        ok(call(
            &registry,
            Some("ana"),
            "create_order",
            order_arguments(&id),
        ))
    };
    assert!(path.exists());

    let registry = GiftShop::open(&path).unwrap().registry();
    let listed = ok(call(&registry, Some("ana"), "list_orders", json!({})));
    assert_eq!(listed["orders"], json!([placed]));
    // Numbering carries on from where the last run stopped.
    let id = coffee_gifts(&registry)[1]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let next = ok(call(
        &registry,
        Some("ana"),
        "create_order",
        order_arguments(&id),
    ));
    assert_eq!(next["orderId"], "ORD-000002");
}

#[test]
fn a_database_from_a_newer_shop_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("orders.sqlite");
    let connection = rusqlite::Connection::open(&path).unwrap();
    connection.pragma_update(None, "user_version", 99).unwrap();
    drop(connection);
    match GiftShop::open(&path) {
        Err(Error::NewerSchema {
            found, supported, ..
        }) => assert_eq!((found, supported), (99, 1)),
        other => panic!("{other:?}"),
    }
    let error = GiftShop::open(&path).unwrap_err().to_string();
    assert!(
        error.contains("has schema version 99, newer than the 1 this gift shop knows"),
        "{error}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(
        &path,
        "these are not orders, just some text that is long enough",
    )
    .unwrap();
    let error = GiftShop::open(&path).unwrap_err();
    assert!(matches!(error, Error::Database { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("the order database {}: ", path.display())),
        "{message}"
    );
}

#[test]
fn calls_in_other_providers_shapes_get_answers_in_their_shapes() {
    let registry = GiftShop::in_memory().unwrap().registry();
    let call = parse_call(
        &json!({"id": "call_1", "type": "function", "function": {
            "name": "suggest_gifts",
            "arguments": "{\"relationship\": \"grandparent\", \"interests\": [\"gardening\"], \"maxBudget\": 40, \"maxResults\": 3}"
        }}),
        None,
        "",
    )
    .unwrap();
    let dispatched = dispatch_blocking(&registry, &call, &DispatchOptions::default());
    assert_eq!(dispatched.outcome, Outcome::Ok);
    let rendered = dispatched.render(&call);
    assert_eq!(rendered["role"], "tool");
    assert_eq!(rendered["tool_call_id"], "call_1");
    let content: Value = serde_json::from_str(rendered["content"].as_str().unwrap()).unwrap();
    assert_eq!(content["gifts"].as_array().unwrap().len(), 3);
}

fn exported_tools() -> Value {
    let registry = GiftShop::in_memory().unwrap().registry();
    toolpact::export(registry.tools(), Target::Mcp, ExportOptions::default())
        .unwrap()
        .payload
}

#[test]
fn the_exported_tools_pass_the_linter_without_warnings() {
    let text = serde_json::to_string_pretty(&exported_tools()).unwrap();
    let catalog = Catalog::from_str_named(&text, "gift-shop-tools.json", None).unwrap();
    assert_eq!(catalog.len(), 4);
    for strict in [false, true] {
        let mut settings = Settings::default();
        settings.strict = strict;
        let report = toolpact_lint::check(&catalog, &settings);
        let serious: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .map(|f| {
                format!(
                    "{} {} {:?} {}: {}",
                    f.code, f.name, f.tool, f.pointer, f.message
                )
            })
            .collect();
        assert!(
            serious.is_empty(),
            "strict = {strict}:\n{}",
            serious.join("\n")
        );
        assert_eq!(report.summary.tools, 4);
    }
}

#[test]
fn the_exported_tools_are_as_reviewed() {
    insta::assert_json_snapshot!("tools_list", exported_tools());
}

#[test]
fn the_tools_carry_their_annotations_and_widget_wiring() {
    let tools = exported_tools();
    let tool = |name: &str| {
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .clone()
    };
    let suggest = tool("suggest_gifts");
    assert_eq!(suggest["annotations"]["readOnlyHint"], true);
    assert_eq!(suggest["annotations"]["openWorldHint"], false);
    assert_eq!(suggest["_meta"]["openai/outputTemplate"], WIDGET_URI);
    for key in [
        "openai/toolInvocation/invoking",
        "openai/toolInvocation/invoked",
    ] {
        let text = suggest["_meta"][key].as_str().unwrap();
        assert!(
            !text.is_empty() && text.chars().count() <= 64,
            "{key}: {text}"
        );
    }
    // The model is never asked for a gift id when it looks for gifts.
    assert!(suggest["inputSchema"]["properties"].get("giftId").is_none());
    let order = tool("create_order");
    assert_eq!(order["annotations"]["destructiveHint"], true);
    assert_eq!(order["annotations"]["readOnlyHint"], false);
    assert_eq!(order["annotations"]["idempotentHint"], false);
    assert!(
        order["description"]
            .as_str()
            .unwrap()
            .contains("suggest_gifts")
    );
    assert!(
        order["inputSchema"]["properties"]["giftId"]["description"]
            .as_str()
            .unwrap()
            .contains("suggest_gifts")
    );
    for name in ["get_gift_details", "list_orders"] {
        assert_eq!(tool(name)["annotations"]["readOnlyHint"], true, "{name}");
    }
    for t in tools["tools"].as_array().unwrap() {
        for property in ["userId", "customerId", "user"] {
            assert!(t["inputSchema"]["properties"].get(property).is_none());
        }
    }
}

#[test]
fn the_widget_renders_every_field_of_a_gift_card() {
    let html = widget_html();
    assert_eq!(WIDGET_MIME, "text/html+skybridge");
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("window.openai"));
    assert!(html.contains("toolOutput"));
    assert!(html.contains("openai:set_globals"));
    assert!(html.contains("data.gifts"));
    assert!(html.contains("data.note"));
    let tools = exported_tools();
    let suggest = &tools["tools"][0];
    let card = &suggest["outputSchema"]["properties"]["gifts"]["items"]["properties"];
    let fields: Vec<&String> = card.as_object().unwrap().keys().collect();
    assert!(fields.len() >= 8, "{fields:?}");
    for field in fields {
        assert!(
            html.contains(&format!("gift.{field}")),
            "the widget never reads gift.{field}"
        );
    }
    // Self-contained: nothing is loaded from elsewhere, and text goes in as text, never HTML.
    for outside in ["<script src", "<link", "@import", "http://", "innerHTML"] {
        assert!(!html.contains(outside), "{outside}");
    }
}
