//! The bodies `toolpact request` prints for every provider from the same files, and what it
//! reports on standard error.

use crate::common::read;
use crate::common::request::{CATALOG, SYSTEM, request};
use serde_json::Value;

/// The model each provider's request names (Gemini takes it in the URL).
fn model(target: &str) -> &'static str {
    match target {
        "openai-responses" => "gpt-5",
        "openai-chat" => "gpt-4.1",
        "anthropic" => "claude-sonnet-4-5",
        _ => "gemini-2.5-flash",
    }
}

#[test]
fn the_same_files_give_every_provider_its_body() {
    for target in [
        "openai-responses",
        "openai-chat",
        "anthropic",
        "gemini",
        "gemini-json",
    ] {
        let run = request(
            &[
                CATALOG,
                "--to",
                target,
                "--system",
                SYSTEM,
                "--messages",
                "fixtures/conversations/parallel-results.json",
                "--model",
                model(target),
                "--max-tokens",
                "1024",
            ],
            None,
        );
        run.assert_code(0);
        let body = run.json();
        // The system prompt travels apart from the messages.
        let system = match target {
            "openai-responses" => &body["instructions"],
            "openai-chat" => &body["messages"][0]["content"],
            "anthropic" => &body["system"],
            _ => &body["systemInstruction"]["parts"][0]["text"],
        };
        assert!(
            system
                .as_str()
                .unwrap()
                .starts_with("You help people choose gifts")
        );
        // Gemini's model is not part of the body.
        assert!(!body.to_string().contains("gemini-2.5-flash"), "{target}");
        insta::assert_snapshot!(format!("{target}-stdout"), run.stdout);
        insta::assert_snapshot!(format!("{target}-stderr"), run.stderr);
    }
}

#[test]
fn messages_come_from_standard_input_too() {
    let stdin = read("fixtures/conversations/first-turn.json");
    let piped = request(
        &[
            CATALOG,
            "--to",
            "gemini",
            "--system",
            SYSTEM,
            "--messages",
            "-",
        ],
        Some(&stdin),
    );
    piped.assert_code(0);
    let file = request(
        &[
            CATALOG,
            "--to",
            "gemini",
            "--system",
            SYSTEM,
            "--messages",
            "fixtures/conversations/first-turn.json",
        ],
        None,
    );
    assert_eq!(piped.stdout, file.stdout);
}

#[test]
fn options_reach_the_body() {
    let run = request(
        &[
            CATALOG,
            "--to",
            "anthropic",
            "--messages",
            "fixtures/conversations/first-turn.json",
            "--model",
            "claude-sonnet-4-5",
            "--max-tokens",
            "512",
            "--strict",
            "--tool-choice",
            "tool:suggest_gifts",
            "--no-parallel",
        ],
        None,
    );
    run.assert_code(0);
    let body = run.json();
    assert_eq!(body["max_tokens"], 512);
    assert!(
        body.get("system").is_none(),
        "no --system, no system prompt"
    );
    assert_eq!(
        body["tool_choice"],
        serde_json::json!({"type": "tool", "name": "suggest_gifts", "disable_parallel_tool_use": true})
    );
    assert!(
        body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["strict"] == true)
    );
    assert!(run.stderr.ends_with(
        "anthropic: request with 2 of 2 tools, 2 with losses, 0 left out; 1 message, 0 losses in the conversation\n"
    ), "{}", run.stderr);
}

#[test]
fn a_conversation_file_may_carry_its_system_prompt_and_losses_point_into_it() {
    let run = request(
        &[
            CATALOG,
            "--to",
            "openai-chat",
            "--messages",
            "fixtures/conversations/mixed-history.json",
            "--model",
            "gpt-4.1",
        ],
        None,
    );
    run.assert_code(0);
    let body = run.json();
    assert_eq!(body["messages"][0]["role"], "system");
    let losses: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("fixtures/conversations/mixed-history.json: "))
        .collect();
    assert_eq!(
        losses,
        [
            "fixtures/conversations/mixed-history.json: /messages/1/reasoning/0: dropped: a reasoning item from anthropic means nothing to openai-chat; it is not sent",
            "fixtures/conversations/mixed-history.json: /messages/5/toolCalls/0/thoughtSignature: dropped: only Gemini reads thought signatures; openai-chat does not get it",
        ]
    );
}

#[test]
fn the_body_can_go_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("body.json");
    let run = request(
        &[
            CATALOG,
            "--to",
            "openai-responses",
            "--messages",
            "fixtures/conversations/first-turn.json",
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "");
    let body: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(body["input"][0]["role"], "user");
    assert!(
        body.get("model").is_none(),
        "the model is optional in a Responses body"
    );
}

#[test]
fn a_tool_the_provider_cannot_take_is_left_out_with_exit_1() {
    let run = request(
        &[
            CATALOG,
            "fixtures/lowering/recursive-defs.json",
            "--to",
            "gemini",
            "--messages",
            "fixtures/conversations/first-turn.json",
        ],
        None,
    );
    run.assert_code(1);
    let body = run.json();
    let declarations = body["tools"][0]["functionDeclarations"].as_array().unwrap();
    assert_eq!(declarations.len(), 2);
    assert!(run.stderr.contains(
        "import_category_tree at /inputSchema/properties/root/properties/children/items/$ref: recursive schema"
    ), "{}", run.stderr);
    assert!(
        run.stderr.contains("gemini: request with 2 of 3 tools"),
        "{}",
        run.stderr
    );
}
