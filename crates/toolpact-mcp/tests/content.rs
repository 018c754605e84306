//! Prompts, resources and completions as a client sees them on the wire: listing, reading and
//! getting, the checks on prompt arguments, binary resources, templates, subscriptions, and the
//! same error code from every resource method of a server that has none.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod wire;

use serde_json::{Value, json};
use toolpact::{Content, Registry, ToolError};
use toolpact_mcp::{Prompt, PromptArgument, PromptMessage, Resource, ResourceTemplate, Server};
use wire::Pipe;

fn server() -> Server {
    Server::new(Registry::new())
        .unwrap()
        .with_resource(Resource::text(
            "test://note",
            "note",
            "text/plain",
            "a note",
        ))
        .with_resource(Resource::blob(
            "test://pixel",
            "pixel",
            "image/png",
            "iVBORw0K",
        ))
        .with_resource_template(
            ResourceTemplate::new("test://items/{id}", "item", |uri, vars| {
                if vars["id"] == "0" {
                    return Err(ToolError::for_model("item 0 does not exist"));
                }
                Ok(Resource::text(
                    uri,
                    "item",
                    "text/plain",
                    format!("item {}", vars["id"]),
                ))
            })
            .with_completion("id", ["10", "11", "20"]),
        )
        .with_prompt(
            Prompt::new("review", "Reviews a file.", |args| {
                Ok(vec![
                    PromptMessage::user(Content::Resource {
                        resource: json!({"uri": args["uri"], "text": "contents"}),
                    }),
                    PromptMessage::user(Content::Image {
                        data: "iVBORw0K".into(),
                        mime_type: "image/png".into(),
                    }),
                    PromptMessage::assistant(Content::text(format!(
                        "Reviewing in {} style.",
                        args.get("style").map_or("plain", String::as_str)
                    ))),
                ])
            })
            .with_argument(PromptArgument::required("uri", "The file to review"))
            .with_argument(PromptArgument::optional("style", "How to review"))
            .with_completion("style", ["terse", "thorough", "friendly"]),
        )
}

#[tokio::test]
async fn prompts_are_listed_and_got_with_checked_arguments() {
    let (mut pipe, initialized) = Pipe::initialized(server(), json!({})).await;
    let capabilities = &initialized["capabilities"];
    assert!(capabilities["prompts"].is_object(), "{capabilities}");
    assert!(capabilities["completions"].is_object(), "{capabilities}");

    let (listed, _) = pipe.request(1, "prompts/list", json!({})).await;
    assert_eq!(
        listed["result"]["prompts"],
        json!([{"name": "review", "description": "Reviews a file.", "arguments": [
            {"name": "uri", "description": "The file to review", "required": true},
            {"name": "style", "description": "How to review", "required": false}]}])
    );

    let (got, _) = pipe
        .request(
            2,
            "prompts/get",
            json!({"name": "review", "arguments": {"uri": "file:///a.rs", "style": "terse"}}),
        )
        .await;
    let messages = &got["result"]["messages"];
    assert_eq!(messages[0]["content"]["type"], "resource", "{got}");
    assert_eq!(messages[0]["content"]["resource"]["uri"], "file:///a.rs");
    assert_eq!(messages[1]["content"]["type"], "image");
    assert_eq!(messages[2]["role"], "assistant");
    assert_eq!(messages[2]["content"]["text"], "Reviewing in terse style.");

    for (params, reason) in [
        (
            json!({"name": "review"}),
            r#"prompt "review" needs the argument "uri" (The file to review)"#,
        ),
        (
            json!({"name": "review", "arguments": {"uri": "x", "mood": "y"}}),
            r#"prompt "review" has no argument "mood"; it takes "uri", "style""#,
        ),
        (
            json!({"name": "reveiw"}),
            r#"no prompt is named "reveiw"; did you mean "review"?"#,
        ),
    ] {
        let (refused, _) = pipe.request(3, "prompts/get", params).await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(refused["error"]["message"], reason);
    }

    let (completed, _) = pipe
        .request(
            4,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review"},
                   "argument": {"name": "style", "value": "t"}}),
        )
        .await;
    assert_eq!(
        completed["result"]["completion"],
        json!({"values": ["terse", "thorough"], "total": 2, "hasMore": false})
    );
    let (completed, _) = pipe
        .request(
            5,
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "test://items/{id}"},
                   "argument": {"name": "id", "value": "1"}}),
        )
        .await;
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["10", "11"])
    );
    pipe.close().await;
}

#[tokio::test]
async fn resources_are_read_as_text_blobs_and_from_templates() {
    let (mut pipe, initialized) = Pipe::initialized(server(), json!({})).await;
    assert_eq!(
        initialized["capabilities"]["resources"]["subscribe"], true,
        "{initialized}"
    );
    let (listed, _) = pipe.request(1, "resources/list", json!({})).await;
    let uris: Vec<&Value> = listed["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["uri"])
        .collect();
    assert_eq!(uris, [&json!("test://note"), &json!("test://pixel")]);
    let (templates, _) = pipe.request(2, "resources/templates/list", json!({})).await;
    assert_eq!(
        templates["result"]["resourceTemplates"],
        json!([{"uriTemplate": "test://items/{id}", "name": "item"}])
    );

    let read = async |pipe: &mut Pipe, uri: &str| {
        pipe.request(3, "resources/read", json!({"uri": uri}))
            .await
            .0
    };
    assert_eq!(
        read(&mut pipe, "test://note").await["result"]["contents"],
        json!([{"uri": "test://note", "mimeType": "text/plain", "text": "a note"}])
    );
    assert_eq!(
        read(&mut pipe, "test://pixel").await["result"]["contents"],
        json!([{"uri": "test://pixel", "mimeType": "image/png", "blob": "iVBORw0K"}])
    );
    assert_eq!(
        read(&mut pipe, "test://items/42").await["result"]["contents"][0]["text"],
        "item 42"
    );
    let missing = read(&mut pipe, "test://items/0").await;
    assert_eq!(missing["error"]["code"], -32002, "{missing}");
    assert_eq!(missing["error"]["message"], "item 0 does not exist");
    let unknown = read(&mut pipe, "test://elsewhere").await;
    assert_eq!(unknown["error"]["code"], -32002, "{unknown}");

    let (subscribed, _) = pipe
        .request(4, "resources/subscribe", json!({"uri": "test://items/7"}))
        .await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    let (unsubscribed, _) = pipe
        .request(5, "resources/unsubscribe", json!({"uri": "test://items/7"}))
        .await;
    assert_eq!(unsubscribed["result"], json!({}), "{unsubscribed}");
    let (refused, _) = pipe
        .request(6, "resources/subscribe", json!({"uri": "test://nowhere"}))
        .await;
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    pipe.close().await;
}

#[tokio::test]
async fn every_resource_method_of_a_server_without_resources_answers_alike() {
    let (mut pipe, initialized) =
        Pipe::initialized(Server::new(Registry::new()).unwrap(), json!({})).await;
    assert!(initialized["capabilities"].get("resources").is_none());
    for (id, (method, params)) in [
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("resources/read", json!({"uri": "test://note"})),
        ("resources/subscribe", json!({"uri": "test://note"})),
    ]
    .into_iter()
    .enumerate()
    {
        let (answer, _) = pipe.request(id as u64 + 1, method, params).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
        assert_eq!(
            answer["error"]["message"],
            format!("{method}: this server has no resources")
        );
    }
    pipe.close().await;
}

#[tokio::test]
async fn clients_hear_of_added_resources_and_of_updates_they_subscribed_to() {
    let mut server = server();
    let resources = server.resources();
    let (mut pipe, initialized) = Pipe::initialized(server, json!({})).await;
    assert_eq!(
        initialized["capabilities"]["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    let (subscribed, _) = pipe
        .request(1, "resources/subscribe", json!({"uri": "test://items/7"}))
        .await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");

    assert_eq!(
        resources.updated("test://items/8").await,
        0,
        "not subscribed"
    );
    assert_eq!(resources.updated("test://items/7").await, 1);
    let updated = pipe.next().await;
    assert_eq!(
        updated,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "test://items/7"}})
    );

    assert_eq!(
        resources
            .add(Resource::text("test://new", "new", "text/plain", "fresh"))
            .await,
        1
    );
    let changed = pipe.next().await;
    assert_eq!(changed["method"], "notifications/resources/list_changed");
    let (listed, _) = pipe.request(2, "resources/list", json!({})).await;
    assert_eq!(listed["result"]["resources"][2]["uri"], "test://new");
    assert!(resources.remove("test://new").await);
    assert_eq!(
        pipe.next().await["method"],
        "notifications/resources/list_changed"
    );
    assert_eq!(resources.len(), 2);

    // Once the client is gone, nobody is told.
    pipe.close().await;
    assert_eq!(resources.updated("test://items/7").await, 0);
}

#[tokio::test]
async fn a_listen_stream_hears_what_its_filter_accepted_until_it_is_closed() {
    let mut server = server();
    let resources = server.resources();
    let options = toolpact_mcp::HttpOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..toolpact_mcp::HttpOptions::default()
    };
    let http = server.bind_http(options).await.unwrap();
    let url = http.url();
    let task = tokio::spawn(http.serve_until(std::future::pending()));
    // 2026-07-28: no session; the request carries its version, and the stream is its answer.
    let listen = json!({
        "jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"}
            },
            "notifications": {
                "toolsListChanged": true,
                "resourcesListChanged": true,
                "resourceSubscriptions": ["test://items/7", "test://nowhere"]
            }
        }
    });
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "subscriptions/listen")
        .body(listen.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status().as_u16(),
        200,
        "{:?}",
        response.text().await
    );
    let mut events = common::Events {
        response,
        buffer: String::new(),
    };
    let acknowledged = events.next().await;
    assert_eq!(
        acknowledged["method"], "notifications/subscriptions/acknowledged",
        "{acknowledged}"
    );
    // The tool list never changes, and test://nowhere is no resource of the server.
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({"resourcesListChanged": true, "resourceSubscriptions": ["test://items/7"]})
    );
    assert_eq!(
        acknowledged["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-1"
    );

    assert_eq!(resources.updated("test://items/8").await, 0, "not accepted");
    assert_eq!(resources.updated("test://items/7").await, 1);
    let updated = events.next().await;
    assert_eq!(updated["method"], "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], "test://items/7");
    assert_eq!(
        updated["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-1"
    );
    let added = Resource::text("test://new", "new", "text/plain", "fresh");
    assert_eq!(resources.add(added).await, 1);
    assert_eq!(
        events.next().await["method"],
        "notifications/resources/list_changed"
    );

    // Closing the stream ends the subscription: nobody is told any more.
    drop(events);
    let mut told = 1;
    for _ in 0..100 {
        told = resources.updated("test://items/7").await;
        if told == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(told, 0, "the closed stream is still told");
    task.abort();
}
