//! A handler reaching the client through its `CallContext`: progress tied to the request's
//! token, log messages that honour `logging/setLevel`, sampling and elicitation with typed
//! answers, `notifications/cancelled` setting the handler's cancellation, and the request's
//! `_meta` — for plain and typed handlers, on the wire as a client sees it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod wire;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use toolpact::{
    CallContext, Content, ElicitationAction, ElicitationRequest, LogLevel, Progress, Registry,
    SamplingMessage, SamplingRequest, Tool, ToolError, ToolResult, TypedHandler, TypedTool,
    Unstructured,
};
use toolpact_mcp::Server;
use wire::{Http, Pipe};

fn empty() -> Value {
    json!({"type": "object", "properties": {}})
}

/// `work` logs at three levels, reports progress twice and answers with `_meta.note`.
fn working_server() -> Server {
    let mut registry = Registry::new();
    registry
        .register(Tool::new("work", "Works in steps.", empty()))
        .unwrap();
    registry
        .set_handler("work", |_args: Value, ctx: CallContext| async move {
            ctx.log(LogLevel::Debug, "details").await?;
            ctx.log(LogLevel::Info, json!({"step": "started"})).await?;
            ctx.progress(Progress::of(1.0, 2.0).with_message("half way"))
                .await?;
            ctx.log(LogLevel::Warning, "almost done").await?;
            ctx.progress(Progress::of(2.0, 2.0)).await?;
            let note = ctx.meta().and_then(|m| m.get("note")).cloned();
            Ok::<_, ToolError>(ToolResult::text(note.unwrap_or(Value::Null).to_string()))
        })
        .unwrap();
    Server::new(registry).unwrap()
}

#[tokio::test]
async fn progress_follows_the_token_and_logs_follow_the_level() {
    let (mut pipe, initialized) = Pipe::initialized(working_server(), json!({})).await;
    assert_eq!(initialized["capabilities"]["logging"], json!({}));

    let (set, _) = pipe
        .request(1, "logging/setLevel", json!({"level": "info"}))
        .await;
    assert_eq!(set["result"], json!({}), "{set}");

    let params = json!({"name": "work", "arguments": {},
        "_meta": {"progressToken": "token-7", "note": "from the request"}});
    let (answer, before) = pipe.request(2, "tools/call", params).await;
    assert_eq!(
        answer["result"]["content"][0]["text"], "\"from the request\"",
        "{answer}"
    );
    let logs: Vec<(&str, &Value)> = before
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| (m["params"]["level"].as_str().unwrap(), &m["params"]["data"]))
        .collect();
    assert_eq!(
        logs,
        [
            ("info", &json!({"step": "started"})),
            ("warning", &json!("almost done"))
        ]
    );
    let progress: Vec<&Value> = before
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| &m["params"])
        .collect();
    assert_eq!(
        progress,
        [
            &json!({"progressToken": "token-7", "progress": 1.0, "total": 2.0, "message": "half way"}),
            &json!({"progressToken": "token-7", "progress": 2.0, "total": 2.0}),
        ]
    );

    // Without a progress token, no progress is sent; without a level set, every log is.
    let (mut fresh, _) = Pipe::initialized(working_server(), json!({})).await;
    let (answer, before) = fresh
        .request(3, "tools/call", json!({"name": "work", "arguments": {}}))
        .await;
    assert_eq!(answer["result"]["content"][0]["text"], "null");
    let methods: Vec<&str> = before
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["notifications/message"; 3]);
    pipe.close().await;
    fresh.close().await;
}

/// Asks the client's model, then the user.
#[derive(Deserialize, JsonSchema)]
struct AskInput {
    /// What to ask the model.
    question: String,
}

struct Ask;

impl TypedTool for Ask {
    type Input = AskInput;
    type Output = Unstructured;
    const NAME: &'static str = "ask";
}

impl TypedHandler for Ask {
    async fn call(&self, input: AskInput, ctx: CallContext) -> Result<Unstructured, ToolError> {
        let mut request = SamplingRequest::new(vec![SamplingMessage::user(input.question)], 50);
        request.system_prompt = Some("Be brief.".to_owned());
        let sampled = ctx.create_message(request).await?;
        let elicited = ctx
            .elicit(ElicitationRequest::new(
                "Your name?",
                json!({"type": "object", "properties": {"name": {"type": "string"}}}),
            ))
            .await?;
        assert_eq!(elicited.action, ElicitationAction::Accept);
        Ok(Unstructured(vec![Content::text(format!(
            "{} said {:?} ({:?}); the user is {}",
            sampled.model,
            sampled.text(),
            sampled.stop_reason,
            elicited.content.unwrap()["name"]
        ))]))
    }
}

#[tokio::test]
async fn sampling_and_elicitation_answers_come_back_typed() {
    let mut registry = Registry::new();
    registry.register_handler(Ask).unwrap();
    let (mut pipe, _) = Pipe::initialized(
        Server::new(registry).unwrap(),
        json!({"sampling": {}, "elicitation": {}}),
    )
    .await;
    pipe.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "ask", "arguments": {"question": "Why?"}}}))
        .await;

    let sampling = pipe.next().await;
    assert_eq!(sampling["method"], "sampling/createMessage");
    assert_eq!(
        sampling["params"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Why?"}}])
    );
    assert_eq!(sampling["params"]["maxTokens"], 50);
    assert_eq!(sampling["params"]["systemPrompt"], "Be brief.");
    pipe.send(json!({"jsonrpc": "2.0", "id": sampling["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "Because."},
        "model": "test-model", "stopReason": "endTurn"}}))
        .await;

    let elicitation = pipe.next().await;
    assert_eq!(elicitation["method"], "elicitation/create");
    assert_eq!(elicitation["params"]["message"], "Your name?");
    assert_eq!(
        elicitation["params"]["requestedSchema"]["properties"]["name"]["type"],
        "string"
    );
    pipe.send(
        json!({"jsonrpc": "2.0", "id": elicitation["id"], "result": {
        "action": "accept", "content": {"name": "Ada"}}}),
    )
    .await;

    let answer = pipe.next().await;
    assert_eq!(answer["id"], 1);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "test-model said \"Because.\" (Some(\"endTurn\")); the user is \"Ada\"",
        "{answer}"
    );
    pipe.close().await;
}

#[tokio::test]
async fn a_client_without_sampling_is_not_asked() {
    let mut registry = Registry::new();
    registry.register_handler(Ask).unwrap();
    let (mut pipe, _) = Pipe::initialized(Server::new(registry).unwrap(), json!({})).await;
    let (answer, before) = pipe
        .request(
            1,
            "tools/call",
            json!({"name": "ask", "arguments": {"question": "Why?"}}),
        )
        .await;
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    pipe.close().await;
}

#[tokio::test]
async fn a_cancelled_request_sets_the_handlers_cancellation() {
    let saw_cancellation = Arc::new(AtomicBool::new(false));
    let saw = Arc::clone(&saw_cancellation);
    let mut registry = Registry::new();
    registry
        .register(Tool::new("wait", "Waits until cancelled.", empty()))
        .unwrap();
    registry
        .set_handler("wait", move |_args: Value, ctx: CallContext| {
            let saw = Arc::clone(&saw);
            async move {
                while !ctx.cancellation.is_cancelled() {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                saw.store(true, Ordering::SeqCst);
                Err::<ToolResult, _>(ToolError::for_model("cancelled"))
            }
        })
        .unwrap();
    let (mut pipe, _) = Pipe::initialized(Server::new(registry).unwrap(), json!({})).await;
    pipe.send(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "wait", "arguments": {}}}))
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    pipe.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9, "reason": "the user changed their mind"}}),
    )
    .await;
    tokio::time::timeout(Duration::from_secs(10), async {
        while !saw_cancellation.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the handler sees its cancellation");
    pipe.close().await;
}

/// Calls the `work` tool over HTTP with a progress token and a `note` in `_meta`; every message
/// of the call's answer stream, in order.
async fn call_work(http: &Http, token: Value, note: u64) -> Vec<Value> {
    let params = json!({"name": "work", "arguments": {},
        "_meta": {"progressToken": token, "note": note}});
    let message = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": params});
    http.post(message).await.0
}

#[tokio::test]
async fn over_http_progress_rides_the_calls_stream_with_its_answer() {
    let http = Http::initialized(working_server()).await;
    let messages = call_work(&http, json!(11), 3).await;
    let progress: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| &m["params"]["progress"])
        .collect();
    assert_eq!(progress, [&json!(1.0), &json!(2.0)], "{messages:?}");
    let answer = messages.last().unwrap();
    assert_eq!(answer["id"], 4);
    assert_eq!(answer["result"]["content"][0]["text"], "3");
}

/// The notifications of a call as the client sees them on the call's stream, in order:
/// `log:<level>` and `progress:<n>`, then `answer`.
fn call_stream(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .map(|m| match m["method"].as_str() {
            Some("notifications/message") => {
                format!("log:{}", m["params"]["level"].as_str().unwrap())
            }
            Some("notifications/progress") => format!("progress:{}", m["params"]["progress"]),
            Some(other) => other.to_owned(),
            None if m["id"] == 4 && m["result"].is_object() => "answer".to_owned(),
            None => m.to_string(),
        })
        .collect()
}

#[tokio::test]
async fn over_http_log_messages_ride_the_calls_stream_in_order_with_its_progress() {
    let http = Http::initialized(working_server()).await;
    let set = http
        .request(1, "logging/setLevel", Some(json!({"level": "info"})))
        .await;
    assert_eq!(set["result"], json!({}), "{set}");
    let messages = call_work(&http, json!("p"), 1).await;
    assert_eq!(
        call_stream(&messages),
        [
            "log:info",
            "progress:1.0",
            "log:warning",
            "progress:2.0",
            "answer"
        ],
        "{messages:?}"
    );
    assert_eq!(messages[0]["params"]["data"], json!({"step": "started"}));
}

#[tokio::test]
async fn stateless_log_messages_ride_the_calls_stream_in_order_with_its_progress() {
    for json_response in [false, true] {
        let http = Http::stateless(working_server(), json_response).await;
        let messages = call_work(&http, json!("p"), 1).await;
        // No session, so no level set: every message goes.
        assert_eq!(
            call_stream(&messages),
            [
                "log:debug",
                "log:info",
                "progress:1.0",
                "log:warning",
                "progress:2.0",
                "answer"
            ],
            "json_response={json_response}: {messages:?}"
        );
    }
}
