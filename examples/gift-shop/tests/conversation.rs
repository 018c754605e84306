//! The whole loop, per provider, with the gift shop's real handlers: conversation → request →
//! recorded response → dispatch → follow-up request. Only the target changes between
//! providers; the follow-up bodies are snapshots, and the results in them must answer the
//! calls the model made, by id, in the order it made them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use gift_shop::{GiftShop, User};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toolpact::dispatch_blocking;
use toolpact::{
    Conversation, DispatchOptions, ExportOptions, Outcome, Registry, RequestOptions, StopKind,
    Target,
};

const USER: &str = "I need gift ideas: my friend Marta loves hiking and coffee, and my colleague Tom is into board games. Up to 40 euros each.";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn recorded(provider: &str, case: &str) -> Value {
    let path = root()
        .join("fixtures/responses")
        .join(provider)
        .join(format!("{case}.json"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

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

fn outcome_name(outcome: &Outcome) -> String {
    serde_json::to_value(outcome).unwrap()["outcome"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// What one turn did: the reply's stop, each call's outcome, and the follow-up body (with its
/// tools, checked against `export`, replaced by their names).
struct Turn {
    stop: StopKind,
    outcomes: Vec<String>,
    follow_up: Option<Value>,
}

fn one_turn(registry: &Registry, target: Target, provider: &str, case: &str) -> Turn {
    let system = std::fs::read_to_string(root().join("fixtures/conversations/system.md")).unwrap();
    let mut conversation = Conversation::with_system(system.trim_end());
    conversation.push_user(USER);
    let first =
        toolpact::build_request(registry.tools(), target, &conversation, &options(target)).unwrap();
    let reply = toolpact::push_response(
        &mut conversation,
        target,
        &recorded(provider, case),
        &first.names,
    )
    .unwrap();
    // The calls follow the export the model saw, and are read back through it.
    let dispatch = DispatchOptions {
        data: Some(Arc::new(User::new("demo"))),
        read_back: Some(first.read_back.clone()),
        ..DispatchOptions::default()
    };
    let mut outcomes = Vec::new();
    for call in &reply.calls {
        let dispatched = dispatch_blocking(registry, call, &dispatch);
        outcomes.push(outcome_name(&dispatched.outcome));
        conversation.push_result(call.id.clone().unwrap(), dispatched.result);
    }
    assert!(conversation.pending_calls(toolpact::Target::Mcp).is_empty());
    let follow_up = (!reply.calls.is_empty()).then(|| {
        let request =
            toolpact::build_request(registry.tools(), target, &conversation, &options(target))
                .unwrap();
        let export = toolpact::export(registry.tools(), target, ExportOptions::default()).unwrap();
        let mut body = request.body;
        assert_eq!(body["tools"], export.payload, "{provider}/{case}");
        let names: Vec<&str> = registry.tools().map(|t| t.name.as_str()).collect();
        body["tools"] = json!(format!("the {target} export of {}", names.join(", ")));
        assert!(request.losses.is_empty(), "{:?}", request.losses);
        body
    });
    Turn {
        stop: reply.stop.kind,
        outcomes,
        follow_up,
    }
}

#[test]
fn one_turn_per_provider_from_recorded_responses() {
    let registry = GiftShop::in_memory().unwrap().try_registry().unwrap();
    for (target, provider) in [
        (Target::OpenAiResponses, "openai-responses"),
        (Target::OpenAiChat, "openai-chat"),
        (Target::Anthropic, "anthropic"),
        (Target::Gemini, "gemini"),
    ] {
        for case in ["text", "one-call", "parallel-calls", "malformed-arguments"] {
            let turn = one_turn(&registry, target, provider, case);
            let expected: &[&str] = match (case, provider) {
                ("text", _) => &[],
                ("one-call", _) => &["ok"],
                ("parallel-calls", _) => &["ok", "invalid-arguments"],
                // Gemini reports the malformed call instead of sending it.
                ("malformed-arguments", "gemini") => &[],
                // Anthropic's input is an object: the broken JSON is a string inside it.
                ("malformed-arguments", "anthropic") => &["invalid-arguments"],
                ("malformed-arguments", _) => &["malformed-arguments"],
                other => panic!("no expectation for {other:?}"),
            };
            assert_eq!(turn.outcomes, expected, "{provider}/{case}");
            let stop = match case {
                "text" => StopKind::EndTurn,
                "malformed-arguments" if provider == "gemini" => StopKind::MalformedToolCall,
                _ => StopKind::ToolCalls,
            };
            assert_eq!(turn.stop, stop, "{provider}/{case}");
            if let Some(body) = turn.follow_up {
                insta::assert_json_snapshot!(format!("follow-up-{provider}-{case}"), body);
            }
        }
    }
}

#[test]
fn switching_provider_mid_conversation_is_one_word() {
    // The model answered on Anthropic; the conversation goes on with Gemini and OpenAI.
    let registry = GiftShop::in_memory().unwrap().try_registry().unwrap();
    let dispatch = DispatchOptions {
        data: Some(Arc::new(User::new("demo"))),
        ..DispatchOptions::default()
    };
    let mut conversation = Conversation::with_system("You help people choose gifts.");
    conversation.push_user(USER);
    let first = toolpact::build_request(
        registry.tools(),
        Target::Anthropic,
        &conversation,
        &options(Target::Anthropic),
    )
    .unwrap();
    let reply = toolpact::push_response(
        &mut conversation,
        Target::Anthropic,
        &recorded("anthropic", "parallel-calls"),
        &first.names,
    )
    .unwrap();
    for call in &reply.calls {
        let result = dispatch_blocking(&registry, call, &dispatch).result;
        conversation.push_result(call.id.clone().unwrap(), result);
    }
    for target in [Target::Gemini, Target::OpenAiResponses, Target::OpenAiChat] {
        let request =
            toolpact::build_request(registry.tools(), target, &conversation, &options(target))
                .unwrap();
        // Claude's thinking block means nothing elsewhere: reported, not sent.
        assert_eq!(request.losses.len(), 1, "{target}");
        assert_eq!(request.losses[0].pointer, "/1/reasoning/0");
        assert!(
            !request.body.to_string().contains("\"thinking\""),
            "{target}"
        );
        // Both results answer their calls by id.
        let text = request.body.to_string();
        assert!(text.contains("toolu_01A09q90qw90lq917835lq9"), "{target}");
        assert!(text.contains("toolu_01B18r01rx01mr028946mr0"), "{target}");
    }
}
