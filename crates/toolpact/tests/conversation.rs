//! The neutral conversation against every provider: recorded responses read back (snapshots),
//! request bodies built from the same conversation for every provider (snapshots), tool
//! choices mapped or refused per provider, names rewritten by export mapped both ways, and the
//! conversations every provider would refuse reported with where and what.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use toolpact::{
    Catalog, Conversation, ConversationError, Registry, RequestError, RequestOptions, StopKind,
    Target, ToolChoice, build_request, parse_messages, read_response,
};

/// The model APIs, in the order the documentation lists them.
const TARGETS: [Target; 5] = [
    Target::OpenAiResponses,
    Target::OpenAiChat,
    Target::Anthropic,
    Target::Gemini,
    Target::GeminiJson,
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn catalog(path: &str) -> Catalog {
    let bytes = std::fs::read(root().join(path)).unwrap();
    Catalog::from_slice(&bytes, path, None).unwrap()
}

fn gift_shop() -> Catalog {
    catalog("examples/catalogs/gift-shop.json")
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A conversation fixture, with the shared system prompt unless it brings its own.
fn conversation(name: &str) -> Conversation {
    let text = std::fs::read_to_string(root().join("fixtures/conversations").join(name)).unwrap();
    let (system, messages) = parse_messages(&text).unwrap();
    let system = system.or_else(|| {
        let prompt =
            std::fs::read_to_string(root().join("fixtures/conversations/system.md")).unwrap();
        Some(prompt.trim_end().to_owned())
    });
    Conversation { system, messages }
}

/// What a harness would send each provider.
fn options(target: Target) -> RequestOptions {
    RequestOptions {
        model: match target {
            Target::OpenAiResponses => Some("gpt-5".to_owned()),
            Target::OpenAiChat => Some("gpt-4.1".to_owned()),
            Target::Anthropic => Some("claude-sonnet-4-5".to_owned()),
            _ => None,
        },
        max_tokens: Some(1024),
        ..RequestOptions::default()
    }
}

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn recorded_responses_read_into_the_conversation() {
    let shop = gift_shop();
    let mut seen = 0;
    for provider in ["openai-responses", "openai-chat", "anthropic", "gemini"] {
        let target: Target = provider.parse().unwrap();
        let names = toolpact::export(shop.tools(), target, Default::default())
            .unwrap()
            .names;
        for path in sorted_files(&root().join("fixtures/responses").join(provider)) {
            let case = path.file_stem().unwrap().to_string_lossy().into_owned();
            let reply = read_response(target, &json_file(&path), &names, 1).unwrap();
            // What each kind of response must give, whatever the snapshot says.
            match case.as_str() {
                "text" => {
                    assert!(reply.calls.is_empty(), "{provider}/{case}");
                    assert_eq!(reply.stop.kind, StopKind::EndTurn, "{provider}/{case}");
                    assert!(reply.message.content.is_some(), "{provider}/{case}");
                }
                "one-call" | "parallel-calls" => {
                    let n = if case == "one-call" { 1 } else { 2 };
                    assert_eq!(reply.calls.len(), n, "{provider}/{case}");
                    assert_eq!(reply.stop.kind, StopKind::ToolCalls, "{provider}/{case}");
                    assert!(reply.calls[0].arguments.is_ok(), "{provider}/{case}");
                    let ids: Vec<_> = reply.calls.iter().map(|c| c.id.clone().unwrap()).collect();
                    let kept: Vec<_> = reply
                        .message
                        .tool_calls
                        .iter()
                        .map(|c| c.id.clone())
                        .collect();
                    assert_eq!(
                        ids, kept,
                        "{provider}/{case}: the calls answer to the kept ids"
                    );
                    assert!(ids.windows(2).all(|w| w[0] != w[1]), "{provider}/{case}");
                }
                "malformed-arguments" if provider == "gemini" => {
                    assert!(reply.calls.is_empty());
                    assert_eq!(reply.stop.kind, StopKind::MalformedToolCall);
                    assert!(reply.message.is_empty());
                }
                "malformed-arguments" if provider.starts_with("openai") => {
                    let error = reply.calls[0].arguments.clone().unwrap_err();
                    assert!(error.contains("not valid JSON (trailing comma"), "{error}");
                    // The text goes back to the provider exactly as the model sent it.
                    assert!(
                        reply.message.tool_calls[0]
                            .arguments
                            .as_str()
                            .unwrap()
                            .ends_with("40,}")
                    );
                }
                "malformed-arguments" => {
                    // Anthropic sends an object; the broken JSON is a string inside it.
                    assert!(reply.calls[0].arguments.as_ref().unwrap()["interests"].is_string());
                }
                other => panic!("unexpected fixture {provider}/{other}"),
            }
            insta::assert_json_snapshot!(format!("reply-{provider}-{case}"), reply);
            seen += 1;
        }
    }
    assert_eq!(seen, 16, "four recorded responses per provider");
}

#[test]
fn gemini_calls_without_ids_get_ids_made_from_their_place() {
    let names = toolpact::export(gift_shop().tools(), Target::Gemini, Default::default())
        .unwrap()
        .names;
    let body = json_file(&root().join("fixtures/responses/gemini/parallel-calls.json"));
    let mut conversation = conversation("first-turn.json");
    let reply = toolpact::push_response(&mut conversation, Target::Gemini, &body, &names).unwrap();
    let ids: Vec<_> = reply.calls.iter().map(|c| c.id.clone().unwrap()).collect();
    assert_eq!(ids, ["gemini-call-1-0", "gemini-call-1-1"]);
    assert!(reply.message.tool_calls.iter().all(|c| c.synthetic_id));
    // The signature stays with the call that carried it.
    assert!(reply.message.tool_calls[0].signature.is_some());
    assert!(reply.message.tool_calls[1].signature.is_none());
    // Read again, the same response gives the same ids: nothing random.
    let again = read_response(Target::Gemini, &body, &names, 1).unwrap();
    assert_eq!(again, reply);
    // Made-up ids never reach Gemini; results are matched by order and name.
    for call in &reply.calls {
        conversation.push_result(call.id.clone().unwrap(), toolpact::ToolResult::text("ok"));
    }
    let request = build_request(
        &shop_tools(),
        Target::Gemini,
        &conversation,
        &options(Target::Gemini),
    )
    .unwrap();
    let text = request.body.to_string();
    assert!(!text.contains("gemini-call-"), "{text}");
    // Nor does a result rendered on its own, while a real Gemini id is echoed.
    let result = toolpact::ToolResult::text("ok");
    for call in &reply.calls {
        let part = toolpact::render(call, &result, toolpact::RenderOptions::default());
        assert_eq!(part["functionResponse"]["name"], "suggest_gifts");
        assert!(part["functionResponse"].get("id").is_none(), "{part}");
    }
    let mut real = reply.calls[0].clone();
    real.id = Some("7ngq2f9c".to_owned());
    assert_eq!(
        toolpact::render(&real, &result, toolpact::RenderOptions::default())["functionResponse"]["id"],
        "7ngq2f9c"
    );
    // Sent to another provider, they are ordinary ids.
    let request = build_request(
        &shop_tools(),
        Target::Anthropic,
        &conversation,
        &options(Target::Anthropic),
    )
    .unwrap();
    assert_eq!(
        request.body["messages"][1]["content"][0]["id"],
        "gemini-call-1-0"
    );
    assert_eq!(
        request.body["messages"][2]["content"][1]["tool_use_id"],
        "gemini-call-1-1"
    );
}

fn shop_tools() -> Vec<toolpact::Tool> {
    gift_shop().tools().cloned().collect()
}

#[test]
fn one_conversation_gives_every_provider_its_request() {
    let shop = gift_shop();
    for path in sorted_files(&root().join("fixtures/conversations")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let conversation = conversation(&name);
        let mut bodies = Map::new();
        for target in TARGETS {
            let request =
                build_request(shop.tools(), target, &conversation, &options(target)).unwrap();
            // The tools are exactly what `export` writes for the target.
            let export = toolpact::export(shop.tools(), target, Default::default()).unwrap();
            assert_eq!(request.body["tools"], export.payload, "{name} {target}");
            assert_eq!(request.names, export.names);
            bodies.insert(
                target.to_string(),
                json!({ "body": request.body, "losses": request.losses }),
            );
        }
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_json_snapshot!(format!("request-{stem}"), bodies);
    }
}

#[test]
fn strict_requests_carry_the_strict_export() {
    let shop = gift_shop();
    let conversation = conversation("parallel-results.json");
    for target in [
        Target::OpenAiResponses,
        Target::OpenAiChat,
        Target::Anthropic,
    ] {
        let options = RequestOptions {
            strict: true,
            ..options(target)
        };
        let request = build_request(shop.tools(), target, &conversation, &options).unwrap();
        let export = toolpact::export(
            shop.tools(),
            target,
            toolpact::ExportOptions { strict: true },
        )
        .unwrap();
        assert_eq!(request.body["tools"], export.payload, "{target}");
        assert_eq!(request.report, export.report, "{target}");
    }
    let options = RequestOptions {
        strict: true,
        ..options(Target::Gemini)
    };
    let error = build_request(shop.tools(), Target::Gemini, &conversation, &options).unwrap_err();
    assert_eq!(
        error.to_string(),
        "gemini has no strict mode; --strict applies to openai-responses, openai-chat and anthropic"
    );
}

#[test]
fn tool_choices_per_provider() {
    let shop = gift_shop();
    let conversation = conversation("first-turn.json");
    let mut table = Map::new();
    for choice in [
        "auto",
        "none",
        "required",
        "tool:create_order",
        "allowed:suggest_gifts",
        "required:suggest_gifts,create_order",
    ] {
        for parallel in [None, Some(false)] {
            let mut row = Map::new();
            for target in TARGETS {
                let options = RequestOptions {
                    tool_choice: choice.parse().unwrap(),
                    parallel_tool_calls: parallel,
                    ..options(target)
                };
                let cell = match build_request(shop.tools(), target, &conversation, &options) {
                    Ok(request) => {
                        let body = request.body;
                        let keep = ["tool_choice", "parallel_tool_calls", "toolConfig"];
                        Value::Object(
                            body.as_object()
                                .unwrap()
                                .iter()
                                .filter(|(k, _)| keep.contains(&k.as_str()))
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect(),
                        )
                    }
                    Err(error) => json!({ "error": error.to_string() }),
                };
                row.insert(target.to_string(), cell);
            }
            let key = match parallel {
                None => choice.to_owned(),
                Some(p) => format!("{choice}, parallel {p}"),
            };
            table.insert(key, Value::Object(row));
        }
    }
    insta::assert_json_snapshot!(table);
}

#[test]
fn names_rewritten_by_export_are_mapped_both_ways() {
    let catalog = catalog("fixtures/lowering/name-dotted.json");
    let registry = Registry::from_catalog(&catalog).unwrap();
    let (_, messages) = parse_messages(
        &json!([
            {"role": "user", "content": "Suspend ana@example.com: she left the company."},
            {"role": "assistant", "toolCalls": [{"id": "call_1", "name": "admin.users.suspend",
                "arguments": {"email": "ana@example.com", "reason": "left the company"}}]},
            {"role": "tool", "toolCallId": "call_1", "content": "Suspended."}
        ])
        .to_string(),
    )
    .unwrap();
    let conversation = Conversation {
        system: None,
        messages,
    };
    let options = RequestOptions {
        model: Some("gpt-4.1".to_owned()),
        tool_choice: ToolChoice::Tool("admin.tools.list".to_owned()),
        ..RequestOptions::default()
    };
    let request = toolpact::build_request(
        registry.tools(),
        Target::OpenAiChat,
        &conversation,
        &options,
    )
    .unwrap();
    let body = &request.body;
    assert_eq!(body["tools"][1]["function"]["name"], "admin_users_suspend");
    assert_eq!(body["tool_choice"]["function"]["name"], "admin_tools_list");
    assert_eq!(
        body["messages"][1]["tool_calls"][0]["function"]["name"],
        "admin_users_suspend"
    );
    // The exported name works in a tool choice too.
    let options = RequestOptions {
        tool_choice: ToolChoice::Tool("admin_tools_list".to_owned()),
        ..options
    };
    let again = toolpact::build_request(
        registry.tools(),
        Target::OpenAiChat,
        &conversation,
        &options,
    )
    .unwrap();
    assert_eq!(again.body["tool_choice"], body["tool_choice"]);
    // A call under the exported name comes back under the tool's own name.
    let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [{"id": "call_2", "type": "function",
        "function": {"name": "admin_tools_list", "arguments": "{}"}}]}}]});
    let reply = read_response(Target::OpenAiChat, &response, &request.names, 3).unwrap();
    assert_eq!(reply.calls[0].name, "admin.tools.list");
    assert_eq!(reply.message.tool_calls[0].name, "admin.tools.list");
    assert_eq!(reply.calls[0].format, Target::OpenAiChat);
    assert_eq!(
        toolpact::check_call(&registry, &reply.calls[0], &Default::default()).tool,
        Some("admin.tools.list")
    );
}

#[test]
fn what_a_provider_cannot_carry_is_refused_with_a_reason() {
    let shop = gift_shop();
    let first = conversation("first-turn.json");
    let error = |target: Target, conversation: &Conversation, options: RequestOptions| {
        build_request(shop.tools(), target, conversation, &options)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(Target::Mcp, &first, RequestOptions::default()),
        "mcp is not a model API; requests are built for openai-responses, openai-chat, anthropic, gemini and gemini-json"
    );
    assert_eq!(
        error(Target::OpenAiChat, &first, RequestOptions::default()),
        "openai-chat requests need `model`: Chat Completions requires the model in the body"
    );
    let no_max = RequestOptions {
        model: Some("claude-sonnet-4-5".to_owned()),
        ..RequestOptions::default()
    };
    assert_eq!(
        error(Target::Anthropic, &first, no_max),
        "anthropic requests need `max_tokens`: the Messages API requires the most tokens the answer may use"
    );
    let unknown = RequestOptions {
        tool_choice: "tool:send_money".parse().unwrap(),
        ..options(Target::Gemini)
    };
    assert_eq!(
        error(Target::Gemini, &first, unknown),
        "the tool choice names \"send_money\", which is not among the tools sent to gemini (suggest_gifts, create_order)"
    );
    let empty = RequestOptions {
        tool_choice: ToolChoice::Allowed {
            tools: Vec::new(),
            required: false,
        },
        ..options(Target::OpenAiResponses)
    };
    assert_eq!(
        error(Target::OpenAiResponses, &first, empty),
        "openai-responses cannot express tool choice allowed:: an allowed set names at least one tool"
    );
    // No tool at all: auto and none are fine (and not written), required is not.
    let request =
        build_request([], Target::OpenAiChat, &first, &options(Target::OpenAiChat)).unwrap();
    assert!(request.body.get("tools").is_none() && request.body.get("tool_choice").is_none());
    let required = RequestOptions {
        tool_choice: ToolChoice::Required,
        ..options(Target::Anthropic)
    };
    assert_eq!(
        build_request([], Target::Anthropic, &first, &required)
            .unwrap_err()
            .to_string(),
        "anthropic cannot express tool choice required: the request carries no tool to call"
    );
}

#[test]
fn conversations_every_provider_refuses_say_where() {
    let shop = gift_shop();
    let check = |messages: Value| -> ConversationError {
        let (system, messages) = parse_messages(&messages.to_string()).unwrap();
        let conversation = Conversation { system, messages };
        match build_request(
            shop.tools(),
            Target::OpenAiResponses,
            &conversation,
            &options(Target::OpenAiResponses),
        ) {
            Err(RequestError::Conversation(error)) => error,
            other => panic!("expected a conversation error, got {other:?}"),
        }
    };
    let user = json!({"role": "user", "content": "Gift ideas?"});
    let call = |id: &str| json!({"id": id, "name": "suggest_gifts", "arguments": {}});
    let result = |id: &str| json!({"role": "tool", "toolCallId": id, "content": "[]"});
    assert_eq!(check(json!([])), ConversationError::Empty);
    assert_eq!(
        check(
            json!([user, {"role": "assistant", "toolCalls": [call("a"), call("b")]}, result("b")])
        )
        .to_string(),
        "/1/toolCalls/0: the call \"a\" (suggest_gifts) has no result; add a tool message with \"toolCallId\": \"a\" right after the assistant message (providers refuse a call left unanswered)"
    );
    assert_eq!(
        check(json!([user, {"role": "assistant", "toolCalls": [call("a")]}, user, result("a")]))
            .to_string(),
        "/1/toolCalls/0: the call \"a\" (suggest_gifts) has no result; add a tool message with \"toolCallId\": \"a\" right after the assistant message (providers refuse a call left unanswered)"
    );
    assert_eq!(
        check(json!([user, {"role": "assistant", "toolCalls": [call("a")]}, result("x")]))
            .to_string(),
        "/2: the tool message answers \"x\", which is not a call of the assistant message /1 (its calls: \"a\")"
    );
    assert_eq!(
        check(
            json!([user, {"role": "assistant", "toolCalls": [call("a")]}, result("a"), result("a")])
        )
        .to_string(),
        "/3: the tool message answers \"a\", which an earlier tool message already answers"
    );
    assert_eq!(
        check(json!([user, result("a")])).to_string(),
        "/1: the tool message answers \"a\", but no assistant message with calls comes right before it"
    );
    assert_eq!(
        check(
            json!([user, {"role": "assistant", "toolCalls": [call("a")]}, result("a"),
            {"role": "assistant", "toolCalls": [call("a")]}, result("a")])
        )
        .to_string(),
        "/3/toolCalls/0: the call id \"a\" is already used at /1/toolCalls/0; every call needs its own id"
    );
    assert_eq!(
        check(json!([user, {"role": "assistant"}])).to_string(),
        "/1: the assistant message is empty; providers refuse empty messages"
    );
    assert_eq!(
        check(json!([{"role": "user", "content": ""}])).to_string(),
        "/0: the user message is empty; providers refuse empty messages"
    );
}

#[test]
fn results_follow_the_order_of_the_calls() {
    // parallel-results.json answers the second call first.
    let conversation = conversation("parallel-results.json");
    let request = build_request(
        shop_tools().iter(),
        Target::OpenAiChat,
        &conversation,
        &options(Target::OpenAiChat),
    )
    .unwrap();
    let messages = request.body["messages"].as_array().unwrap();
    let ids: Vec<&str> = messages
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "call_Kq3vT8mWz1XyR5bN2cD4eF6g",
            "call_P7hJ2kL9mN4qR6sT8uV0wX1y"
        ]
    );
}

#[test]
fn provider_errors_and_other_shapes_are_not_responses() {
    let names = toolpact::name::NameMap::default();
    let read = |target: Target, body: Value| {
        read_response(target, &body, &names, 0)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        read(
            Target::Anthropic,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
        ),
        "the provider answered with an error: overloaded_error: Overloaded"
    );
    assert_eq!(
        read(
            Target::Gemini,
            json!({"error": {"code": 400, "message": "Function call is missing a thought_signature in functionCall parts.", "status": "INVALID_ARGUMENT"}})
        ),
        "the provider answered with an error: INVALID_ARGUMENT: Function call is missing a thought_signature in functionCall parts."
    );
    assert_eq!(
        read(Target::OpenAiChat, json!({"output": []})),
        "no `choices`: this is not a Chat Completions response"
    );
    assert_eq!(
        read(
            Target::OpenAiResponses,
            json!({"output": [{"type": "function_call", "name": "x"}]})
        ),
        "/output/0: the call has no `call_id`"
    );
    assert_eq!(
        read(Target::OpenAiResponses, json!([1])),
        "a response body is a JSON object, found an array"
    );
}

#[test]
fn what_the_conversation_does_not_keep_is_listed() {
    let names = toolpact::name::NameMap::default();
    let skipped = |target: Target, body: Value| -> Vec<String> {
        read_response(target, &body, &names, 0)
            .unwrap()
            .skipped
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(
        skipped(
            Target::OpenAiResponses,
            json!({"status": "completed", "output": [
                {"type": "web_search_call", "id": "ws_1", "status": "completed"},
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Found it."}]}
            ]})
        ),
        [
            "/output/0: a `web_search_call` output item (a built-in tool's) is not part of the conversation; it is not sent back"
        ]
    );
    assert_eq!(
        skipped(
            Target::OpenAiChat,
            json!({"choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}},
                {"index": 1, "finish_reason": "stop", "message": {"role": "assistant", "content": "Hello"}}
            ]})
        ),
        [
            "/choices/1: only the first choice is read (the request asked for several, `n` > 1)",
            "/choices/0/message/content: content that is not a string is not kept (Chat Completions answers with text)",
        ]
    );
    assert_eq!(
        skipped(
            Target::Anthropic,
            json!({"stop_reason": "end_turn", "content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "head torch"}},
                {"type": "text", "text": "Head torches start at 20 EUR.", "citations": [{"type": "web_search_result_location", "url": "https://example.com", "title": "Torches", "cited_text": "from 20 EUR", "encrypted_index": "x"}]}
            ]})
        ),
        [
            "/content/0: a `server_tool_use` block (a server tool's) is not part of the conversation; it is not sent back",
            "/content/1/citations: citations are not kept; the text is",
        ]
    );
    assert_eq!(
        skipped(
            Target::Gemini,
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
                {"text": "Thinking about budgets.", "thought": true},
                {"text": "Here are two ideas.", "thoughtSignature": "c2lnbmF0dXJl"}
            ]}}]})
        ),
        [
            "/candidates/0/content/parts/0: a thought summary is for people, not the conversation; it is not sent back",
            "/candidates/0/content/parts/1/thoughtSignature: the signature of a text part is not kept; Gemini requires the signatures of function calls only",
        ]
    );
    // A prompt blocked before any candidate is a refusal, not a broken response.
    let reply = read_response(
        Target::Gemini,
        &json!({"promptFeedback": {"blockReason": "SAFETY"}}),
        &names,
        0,
    )
    .unwrap();
    assert_eq!(reply.stop.kind, StopKind::Refusal);
    assert_eq!(reply.stop.raw.as_deref(), Some("blockReason: SAFETY"));
}
