//! Client and server over an in-memory pipe: the whole MCP session, no process, no socket.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Customer, many_tools, shop_server, shop_tools};
use rmcp::model::{
    CallToolRequestParams, ClientConfig, ClientResult, CustomResult, ErrorData, ListToolsResult,
    PaginatedRequestParams, PingRequest, ProtocolVersion, ReadResourceRequestParams,
    ResourceContents, ServerCapabilities, ServerConfig, ServerJsonRpcMessage, ServerRequest,
    ServerResult, Tool as RmcpTool,
};
use rmcp::service::RequestContext;
use rmcp::transport::{IntoTransport, Transport};
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{DuplexStream, ReadHalf, WriteHalf};
use tokio::task::JoinHandle;
use toolpact::DispatchOptions;
use toolpact_mcp::{ClientError, ClientOptions, Connection, ServeError, Server};

type Halves = (ReadHalf<DuplexStream>, WriteHalf<DuplexStream>);

fn pipe() -> (Halves, Halves) {
    let (a, b) = tokio::io::duplex(1 << 20);
    (tokio::io::split(a), tokio::io::split(b))
}

/// Serves `server` on one end of a pipe and opens a connection on the other.
async fn connect(server: Server) -> (Connection, JoinHandle<Result<(), ServeError>>) {
    let (client_end, server_end) = pipe();
    let serving = tokio::spawn(server.serve_io(server_end, std::future::pending()));
    let connection = Connection::open_io("memory", client_end, &ClientOptions::default())
        .await
        .unwrap();
    (connection, serving)
}

#[tokio::test]
async fn tools_list_serves_every_declared_field_in_order() {
    let (connection, serving) = connect(shop_server()).await;
    let info = connection.server_info().unwrap();
    assert_eq!(info.name.as_deref(), Some("shop"));
    assert_eq!(info.version.as_deref(), Some("1.2.3"));
    assert_eq!(info.protocol_version, "2025-11-25");
    assert_eq!(connection.list_tools().await.unwrap(), shop_tools());
    connection.close().await;
    // The client went away: the session ends and the server returns cleanly.
    serving.await.unwrap().unwrap();
}

#[tokio::test]
async fn calls_are_validated_against_the_full_schema() {
    let (connection, _serving) = connect(shop_server()).await;

    let ok = connection
        .call_tool(
            "suggest_gifts",
            json!({"recipient": "my sister", "budget": 40}),
        )
        .await
        .unwrap();
    assert!(!ok.is_error);
    assert_eq!(
        ok.structured,
        Some(json!({"gifts": [{"name": "Trail map of the Alps", "price": 25}]}))
    );

    // rmcp alone would deserialize these arguments happily: the constraints are schema-only.
    let invalid = connection
        .call_tool(
            "suggest_gifts",
            json!({"recipient": "me", "budget": 900, "color": "red"}),
        )
        .await
        .unwrap();
    assert!(invalid.is_error);
    let message = invalid.text_content();
    assert!(
        message.starts_with("Invalid arguments for suggest_gifts: 3 problems."),
        "{message}"
    );
    assert!(
        message.contains("`recipient` must be at least 3 characters"),
        "{message}"
    );
    assert!(
        message.contains("`budget` must be at most 500"),
        "{message}"
    );
    assert!(message.contains("`color` is not an argument"), "{message}");

    let unknown = connection
        .call_tool("suggest_gift", json!({}))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Some(-32602));
    let text = unknown.to_string();
    assert!(text.contains("Unknown tool: suggest_gift"), "{text}");
    assert!(text.contains("`suggest_gifts`"), "{text}");
}

#[tokio::test]
async fn call_data_comes_from_the_server_never_from_the_model() {
    let options = DispatchOptions {
        data: Some(Arc::new(Customer("ada".to_owned()))),
        ..DispatchOptions::default()
    };
    let (connection, _serving) = connect(shop_server().with_dispatch_options(options)).await;
    let result = connection
        .call_tool("whoami", json!({"customer": "mallory"}))
        .await
        .unwrap();
    // The schema forbids the argument, and the data is the server's.
    assert!(result.is_error);
    let result = connection.call_tool("whoami", json!({})).await.unwrap();
    assert_eq!(result.text_content(), "ada");

    // Over a pipe there are no HTTP headers: the per-call hook sees none.
    let server = shop_server().with_call_data(|info| {
        let name = info.header("x-customer").unwrap_or("anonymous").to_owned();
        Some(Arc::new(Customer(format!("{name} via {}", info.tool()))))
    });
    let (connection, _serving) = connect(server).await;
    let result = connection.call_tool("whoami", json!({})).await.unwrap();
    assert_eq!(result.text_content(), "anonymous via whoami");
}

#[tokio::test]
async fn long_lists_are_paginated_and_followed() {
    let server = Server::new(many_tools(250)).unwrap().with_page_size(100);
    let (client_end, server_end) = pipe();
    tokio::spawn(server.serve_io(server_end, std::future::pending()));
    let client = ClientConfig::default().serve(client_end).await.unwrap();
    let first = client.peer().list_tools(None).await.unwrap();
    assert_eq!(first.tools.len(), 100);
    assert_eq!(first.next_cursor.as_deref(), Some("100"));
    let last = client
        .peer()
        .list_tools(Some(
            PaginatedRequestParams::default().with_cursor(Some("200".into())),
        ))
        .await
        .unwrap();
    assert_eq!(last.tools.len(), 50);
    assert_eq!(last.next_cursor, None);
    let bad = client
        .peer()
        .list_tools(Some(
            PaginatedRequestParams::default().with_cursor(Some("999".into())),
        ))
        .await
        .unwrap_err();
    assert!(bad.to_string().contains("invalid cursor"), "{bad}");
    client.cancel().await.unwrap();

    let server = Server::new(many_tools(250)).unwrap().with_page_size(100);
    let (connection, _serving) = connect(server).await;
    let tools = connection.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let expected: Vec<String> = (0..250).map(|i| format!("tool_{i:03}")).collect();
    assert_eq!(names, expected);
}

#[tokio::test]
async fn results_take_the_shape_of_the_negotiated_version() {
    for version in [ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25] {
        let (client_end, server_end) = pipe();
        tokio::spawn(shop_server().serve_io(server_end, std::future::pending()));
        let client = ClientConfig::default()
            .with_protocol_version(version.clone())
            .serve(client_end)
            .await
            .unwrap();
        let negotiated = client.peer().peer_info().unwrap().protocol_version.clone();
        assert_eq!(negotiated, version);
        let result = client
            .peer()
            .call_tool(CallToolRequestParams::new("whoami"))
            .await
            .unwrap();
        // `resultType` and cache hints belong to 2026-07-28 and later.
        assert_eq!(result.result_type, None, "{version}");
        let list = client.peer().list_tools(None).await.unwrap();
        assert_eq!(list.ttl_ms, None, "{version}");
        client.cancel().await.unwrap();
    }

    let (client_end, server_end) = pipe();
    tokio::spawn(shop_server().serve_io(server_end, std::future::pending()));
    let client = ClientConfig::default()
        .serve_with_lifecycle(
            client_end,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .unwrap();
    let result = client
        .peer()
        .call_tool(CallToolRequestParams::new("whoami"))
        .await
        .unwrap();
    assert!(result.result_type.is_some_and(|t| t.is_complete()));
    let list = client.peer().list_tools(None).await.unwrap();
    assert!(list.ttl_ms.is_some());
    assert_eq!(list.tools.len(), 2);

    // An older protocol version than this server speaks is answered with one it speaks.
    let (client_end, server_end) = pipe();
    tokio::spawn(shop_server().serve_io(server_end, std::future::pending()));
    let client = ClientConfig::default()
        .with_protocol_version(ProtocolVersion::V_2025_03_26)
        .serve(client_end)
        .await
        .unwrap();
    let negotiated = client.peer().peer_info().unwrap().protocol_version.clone();
    assert_eq!(negotiated, ProtocolVersion::V_2025_11_25);
}

#[tokio::test]
async fn widget_templates_are_served_as_resources() {
    let (client_end, server_end) = pipe();
    let server = shop_server();
    assert_eq!(server.notes(), Vec::<String>::new());
    tokio::spawn(server.serve_io(server_end, std::future::pending()));
    let client = ClientConfig::default().serve(client_end).await.unwrap();
    let listed = client.peer().list_resources(None).await.unwrap();
    assert_eq!(listed.resources.len(), 1);
    assert_eq!(listed.resources[0].uri, "ui://widget/gifts.html");
    assert_eq!(
        listed.resources[0].mime_type.as_deref(),
        Some("text/html+skybridge")
    );
    let read = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("ui://widget/gifts.html"))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents {
        text, mime_type, ..
    } = &read.contents[0]
    else {
        panic!("expected text contents");
    };
    assert_eq!(text, common::WIDGET);
    assert_eq!(mime_type.as_deref(), Some("text/html+skybridge"));
    let missing = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("ui://widget/none.html"))
        .await
        .unwrap_err();
    assert!(
        missing.to_string().contains("ui://widget/none.html"),
        "{missing}"
    );

    // Without the resource, the server says which tool points at a template it lacks.
    let bare = Server::new(common::shop_registry()).unwrap();
    assert_eq!(
        bare.notes(),
        [
            "tool \"suggest_gifts\": /_meta/openai~1outputTemplate points at ui://widget/gifts.html, which this server does not serve as a resource"
        ]
    );
}

/// A server whose tool list changes while the first `tools/list` is answered.
struct Changing {
    lists: AtomicUsize,
}

fn plain_tool(name: &'static str) -> RmcpTool {
    let schema = json!({"type": "object"});
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    RmcpTool::new(name, "A tool.", schema)
}

impl ServerHandler for Changing {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if self.lists.fetch_add(1, Ordering::SeqCst) == 0 {
            context.peer.notify_tool_list_changed().await.unwrap();
            // The notification is on the wire well before the (now stale) answer.
            tokio::time::sleep(Duration::from_millis(300)).await;
            return Ok(ListToolsResult::with_all_items(vec![plain_tool("old")]));
        }
        Ok(ListToolsResult::with_all_items(vec![
            plain_tool("old"),
            plain_tool("new"),
        ]))
    }
}

#[tokio::test]
async fn a_list_change_during_listing_makes_the_client_list_again() {
    let (client_end, server_end) = pipe();
    let changing = Changing {
        lists: AtomicUsize::new(0),
    };
    tokio::spawn(async move {
        let running = changing.serve(server_end).await.unwrap();
        let _ = running.waiting().await;
    });
    let connection = Connection::open_io("changing", client_end, &ClientOptions::default())
        .await
        .unwrap();
    let tools = connection.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["old", "new"]);
}

/// A server that asks the client something before it answers `tools/list`.
struct Curious;

impl ServerHandler for Curious {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    #[allow(deprecated)]
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let ping = context
            .peer
            .send_request(ServerRequest::PingRequest(PingRequest::default()))
            .await;
        let pong = matches!(ping, Ok(ClientResult::EmptyResult(_)));
        let roots = context.peer.list_roots().await.map(|r| r.roots.len());
        let name = match (pong, roots) {
            (true, Ok(0)) => "answered",
            _ => "unanswered",
        };
        Ok(ListToolsResult::with_all_items(vec![plain_tool(name)]))
    }
}

#[tokio::test]
async fn the_client_answers_ping_and_roots_list() {
    let (client_end, server_end) = pipe();
    tokio::spawn(async move {
        let running = Curious.serve(server_end).await.unwrap();
        let _ = running.waiting().await;
    });
    let connection = Connection::open_io("curious", client_end, &ClientOptions::default())
        .await
        .unwrap();
    let tools = connection.list_tools().await.unwrap();
    assert_eq!(tools[0]["name"], "answered");
}

/// A server that always has one more page.
struct Endless;

impl ServerHandler for Endless {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = ListToolsResult::with_all_items(vec![plain_tool("again")]);
        result.next_cursor = Some("more".to_owned());
        Ok(result)
    }
}

#[tokio::test]
async fn a_server_that_pages_forever_is_cut_off() {
    let (client_end, server_end) = pipe();
    tokio::spawn(async move {
        let running = Endless.serve(server_end).await.unwrap();
        let _ = running.waiting().await;
    });
    let options = ClientOptions {
        max_pages: 5,
        ..ClientOptions::default()
    };
    let connection = Connection::open_io("endless", client_end, &options)
        .await
        .unwrap();
    let error = connection.list_tools().await.unwrap_err();
    assert!(matches!(error, ClientError::TooManyPages { pages: 5, .. }));
    assert_eq!(
        error.to_string(),
        "endless: tools/list still had a nextCursor after 5 pages; the server may page forever (raise the page limit if it really has that many tools)"
    );
}

#[tokio::test]
async fn a_tool_list_rmcp_cannot_model_is_read_raw_and_reported_where_it_breaks() {
    let (client_end, server_end) = pipe();
    let mut server = IntoTransport::<RoleServer, _, _>::into_transport(server_end);
    tokio::spawn(async move {
        while let Some(message) = server.receive().await {
            let rmcp::model::ClientJsonRpcMessage::Request(request) = message else {
                continue;
            };
            let result = match request.request.method() {
                "initialize" => json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "sloppy", "version": "0.0.1"}
                }),
                // The second tool has no inputSchema: rmcp's Tool cannot hold it.
                "tools/list" => json!({"tools": [
                    {"name": "fine", "inputSchema": {"type": "object"}, "readOnlyHint": true},
                    {"name": "broken", "description": "No schema."}
                ]}),
                _ => json!({}),
            };
            let response = ServerJsonRpcMessage::response(
                ServerResult::CustomResult(CustomResult(result)),
                request.id,
            );
            server.send(response).await.unwrap();
        }
    });
    let connection = Connection::open_io("sloppy", client_end, &ClientOptions::default())
        .await
        .unwrap();
    let tools = connection.list_tools().await.unwrap();
    // Raw, so even the misplaced hint is kept for the linter to see.
    assert_eq!(tools[0]["readOnlyHint"], true);
    assert_eq!(tools[1]["name"], "broken");
    let fetched = toolpact_mcp::Fetched {
        origin: "sloppy".to_owned(),
        server: None,
        tools,
    };
    let error = fetched.catalog().unwrap_err().to_string();
    assert!(error.starts_with("sloppy:"), "{error}");
    assert!(error.contains("/tools/1"), "{error}");
}

#[tokio::test]
async fn a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let ((client_read, mut client_write), server_end) = pipe();
    let serving = tokio::spawn(shop_server().serve_io(server_end, std::future::pending()));
    let mut answers = BufReader::new(client_read).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), answers.next_line())
            .await
            .expect("an answer within 10 s")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    };

    client_write
        .write_all(b"{\"jsonrpc\": \"2.0\", oops\n")
        .await
        .unwrap();
    let error = next().await;
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null);

    // The session is unharmed: initialize, then list the tools.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    client_write
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(next().await["id"], 1);
    client_write
        .write_all(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\nnot json either\n",
        )
        .await
        .unwrap();
    assert_eq!(next().await["error"]["code"], -32700);
    client_write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n")
        .await
        .unwrap();
    let listed = next().await;
    assert_eq!(listed["id"], 2);
    assert_eq!(
        listed["result"]["tools"].as_array().unwrap().len(),
        shop_tools().len()
    );

    // The client closes its end: the server ends.
    client_write.shutdown().await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server stops when the client leaves")
        .unwrap()
        .unwrap();
}
