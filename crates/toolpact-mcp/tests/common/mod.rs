//! What the integration tests share: the shop registry with its handlers, and a generated
//! catalog long enough to be paginated.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};
use toolpact::{CallContext, Catalog, Registry, Tool, ToolError, ToolResult};
use toolpact_mcp::{Resource, Server};

/// The customer an HTTP server authenticates; handlers find it in the call's data.
#[derive(Debug, Clone)]
pub struct Customer(pub String);

pub const SHOP: &str = include_str!("../fixtures/shop.json");
pub const WIDGET: &str = include_str!("../fixtures/gifts.html");

/// The first JSON-RPC message of an HTTP answer's body: the first `data:` line of an SSE
/// stream, or the body itself read as JSON (`null` when it is neither).
pub fn first_message(body: &str) -> Value {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .find(|data| !data.is_empty())
        .map_or_else(
            || serde_json::from_str(body).unwrap_or(Value::Null),
            |data| serde_json::from_str(data).unwrap(),
        )
}

/// The shop's tools as they are declared, for comparing with what a client lists.
pub fn shop_tools() -> Vec<Value> {
    let doc: Value = serde_json::from_str(SHOP).unwrap();
    doc["tools"].as_array().unwrap().clone()
}

/// The shop: `suggest_gifts` answers with structured gifts within the budget, `whoami` with
/// the customer attached to the call (or "nobody").
pub fn shop_registry() -> Registry {
    let catalog = Catalog::from_str_named(SHOP, "shop.json", None).unwrap();
    let mut registry = Registry::from_catalog(&catalog).unwrap();
    registry
        .set_handler(
            "suggest_gifts",
            |args: Value, _ctx: CallContext| async move {
                let budget = args["budget"].as_i64().unwrap_or_default();
                Ok::<_, ToolError>(ToolResult::structured(json!({
                    "gifts": [{"name": "Trail map of the Alps", "price": budget.min(25)}]
                })))
            },
        )
        .unwrap();
    registry
        .set_handler("whoami", |_args: Value, ctx: CallContext| async move {
            let customer = ctx.data::<Customer>().map_or("nobody", |c| c.0.as_str());
            Ok::<_, ToolError>(ToolResult::text(customer.to_owned()))
        })
        .unwrap();
    registry
}

/// The shop server with its widget template as a resource.
pub fn shop_server() -> Server {
    Server::new(shop_registry())
        .unwrap()
        .with_name("shop", "1.2.3")
        .with_resource(Resource::text(
            "ui://widget/gifts.html",
            "gifts widget",
            "text/html+skybridge",
            WIDGET,
        ))
}

/// `count` tools named `tool_000`, `tool_001`, … each with one required string argument.
pub fn many_tools(count: usize) -> Registry {
    let mut registry = Registry::new();
    for i in 0..count {
        let tool = Tool::new(
            format!("tool_{i:03}"),
            format!("Tool number {i}. Call it with a note."),
            json!({
                "type": "object",
                "properties": {"note": {"type": "string", "description": "Any note."}},
                "required": ["note"]
            }),
        );
        registry.register(tool).unwrap();
    }
    registry
}

/// The events of an SSE response as they arrive, one JSON-RPC message at a time.
pub struct Events {
    /// The response whose body is the stream.
    pub response: reqwest::Response,
    /// What was read of the next event.
    pub buffer: String,
}

impl Events {
    /// The next message; fails the test after 10 s.
    pub async fn next(&mut self) -> Value {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let data: String = event
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if !data.is_empty() {
                    return serde_json::from_str(&data).unwrap();
                }
            }
            let chunk =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.response.chunk())
                    .await
                    .expect("an event within 10 s")
                    .unwrap()
                    .expect("the stream is still open");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }
}
