//! One full turn of the call loop, offline, for every provider: the user asks for gift ideas
//! for two people, the model answers with two parallel `suggest_gifts` calls (one valid, one
//! with invented values), the harness reads the answer back into the neutral conversation,
//! dispatches both calls through the gift shop's registry, and builds the follow-up request.
//!
//! The model's answers are recorded responses (`fixtures/responses/<provider>/parallel-calls.json`),
//! so nothing goes over the network. The code is the same for every provider: only the
//! [`Target`] changes.
//!
//! ```sh
//! cargo run -p toolpact-gift-shop --example one_turn            # every provider
//! cargo run -p toolpact-gift-shop --example one_turn anthropic  # one provider
//! ```
//!
//! Each follow-up request body goes to standard output; what happened along the way goes to
//! standard error.

use gift_shop::{GiftShop, User};
use serde_json::Value;
use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;
use toolpact::dispatch_blocking;
use toolpact::{Conversation, DispatchOptions, Registry, RequestOptions, Target};

const SYSTEM: &str = include_str!("../../../fixtures/conversations/system.md");
const USER: &str = "I need gift ideas: my friend Marta loves hiking and coffee, and my colleague Tom is into board games. Up to 40 euros each.";

/// Each provider, the model it would be sent to, and its recorded answer to the first request.
const PROVIDERS: [(Target, &str, &str); 4] = [
    (
        Target::OpenAiResponses,
        "gpt-5",
        include_str!("../../../fixtures/responses/openai-responses/parallel-calls.json"),
    ),
    (
        Target::OpenAiChat,
        "gpt-4.1",
        include_str!("../../../fixtures/responses/openai-chat/parallel-calls.json"),
    ),
    (
        Target::Anthropic,
        "claude-sonnet-4-5",
        include_str!("../../../fixtures/responses/anthropic/parallel-calls.json"),
    ),
    (
        Target::Gemini,
        "gemini-2.5-flash",
        include_str!("../../../fixtures/responses/gemini/parallel-calls.json"),
    ),
];

fn main() -> ExitCode {
    let only = std::env::args().nth(1);
    match run(only.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("one_turn: {error}");
            ExitCode::from(2)
        }
    }
}

fn run(only: Option<&str>) -> Result<(), Box<dyn Error>> {
    let registry = GiftShop::in_memory()?.try_registry()?;
    // The signed-in customer comes from the server, never from the model.
    let dispatch = DispatchOptions {
        data: Some(Arc::new(User::new("demo"))),
        ..DispatchOptions::default()
    };
    let mut found = false;
    for (target, model, recorded) in PROVIDERS {
        if only.is_some_and(|name| name != target.as_str()) {
            continue;
        }
        found = true;
        let body = one_turn(&registry, &dispatch, target, model, recorded)?;
        println!("{}", serde_json::to_string_pretty(&body)?);
    }
    if !found {
        return Err(format!(
            "unknown provider {:?}; expected openai-responses, openai-chat, anthropic or gemini",
            only.unwrap_or_default()
        )
        .into());
    }
    Ok(())
}

/// Runs one turn for `target` and returns the follow-up request body.
fn one_turn(
    registry: &Registry,
    dispatch: &DispatchOptions,
    target: Target,
    model: &str,
    recorded: &str,
) -> Result<Value, Box<dyn Error>> {
    let options = RequestOptions {
        model: Some(model.to_owned()),
        max_tokens: Some(1024),
        ..RequestOptions::default()
    };
    let mut conversation = Conversation::with_system(SYSTEM.trim_end());
    conversation.push_user(USER);

    // The first request: this body would be sent; its name map reads the answer back.
    let first = toolpact::build_request(registry.tools(), target, &conversation, &options)?;

    let response: Value = serde_json::from_str(recorded)?;
    let reply = toolpact::push_response(&mut conversation, target, &response, &first.names)?;
    eprintln!(
        "{target}: the model stopped ({}) with {} calls",
        reply.stop.kind,
        reply.calls.len()
    );
    // Calls follow the export the model saw: they are read back through it.
    let dispatch = DispatchOptions {
        read_back: Some(first.read_back.clone()),
        ..dispatch.clone()
    };
    for call in &reply.calls {
        let dispatched = dispatch_blocking(registry, call, &dispatch);
        let id = call.id.clone().unwrap_or_default();
        eprintln!(
            "{target}:   {} {id}: {}",
            call.name,
            outcome(&dispatched.outcome)
        );
        conversation.push_result(id, dispatched.result);
    }

    let follow_up = toolpact::build_request(registry.tools(), target, &conversation, &options)?;
    for loss in &follow_up.losses {
        eprintln!("{target}:   not sent as it is: {loss}");
    }
    Ok(follow_up.body)
}

fn outcome(outcome: &toolpact::Outcome) -> String {
    match outcome {
        toolpact::Outcome::InvalidArguments { errors } => format!(
            "invalid arguments ({})",
            errors
                .errors
                .iter()
                .map(|e| e.pointer.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => serde_json::to_value(other)
            .ok()
            .and_then(|v| v.get("outcome").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| format!("{other:?}")),
    }
}
