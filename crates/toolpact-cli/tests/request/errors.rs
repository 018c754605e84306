//! What `toolpact request` cannot do ends with exit 2 and one message that says where and what.

use crate::common::request::{CATALOG, SYSTEM, request};

fn error_of(args: &[&str], stdin: Option<&[u8]>) -> String {
    request(args, stdin).usage_error().to_owned()
}

const FIRST: &str = "fixtures/conversations/first-turn.json";

#[test]
fn required_options_are_named_with_their_flag() {
    assert_eq!(
        error_of(&[CATALOG, "--to", "openai-chat", "--messages", FIRST], None),
        "openai-chat requests need `model`: Chat Completions requires the model in the body; give it with --model"
    );
    assert_eq!(
        error_of(
            &[
                CATALOG,
                "--to",
                "anthropic",
                "--messages",
                FIRST,
                "--model",
                "claude-sonnet-4-5"
            ],
            None
        ),
        "anthropic requests need `max_tokens`: the Messages API requires the most tokens the answer may use; give it with --max-tokens"
    );
}

#[test]
fn a_setting_the_provider_cannot_express_is_refused() {
    assert_eq!(
        error_of(
            &[
                CATALOG,
                "--to",
                "anthropic",
                "--messages",
                FIRST,
                "--model",
                "claude-sonnet-4-5",
                "--max-tokens",
                "100",
                "--tool-choice",
                "allowed:suggest_gifts",
            ],
            None
        ),
        "anthropic cannot express tool choice allowed:suggest_gifts: the Messages API `tool_choice` is auto, any, tool or none, with no allowed subset; send only those tools, or name one with tool:NAME"
    );
    assert_eq!(
        error_of(
            &[
                CATALOG,
                "--to",
                "gemini",
                "--messages",
                FIRST,
                "--no-parallel"
            ],
            None
        ),
        "gemini cannot express parallel_tool_calls false: Gemini has no setting that limits a turn to one function call; leave it unset and handle every call"
    );
    assert_eq!(
        error_of(
            &[CATALOG, "--to", "gemini", "--messages", FIRST, "--strict"],
            None
        ),
        "gemini has no strict mode; --strict applies to openai-responses, openai-chat and anthropic"
    );
    assert_eq!(
        error_of(
            &[
                CATALOG,
                "--to",
                "gemini-json",
                "--messages",
                FIRST,
                "--tool-choice",
                "tool:send_money"
            ],
            None
        ),
        "the tool choice names \"send_money\", which is not among the tools sent to gemini-json (suggest_gifts, create_order)"
    );
}

#[test]
fn bad_messages_say_where() {
    assert_eq!(
        error_of(
            &[CATALOG, "--to", "gemini", "--messages", "-"],
            Some(b"[\n  {\"role\": \"user\",\n")
        ),
        "-:3:1: not valid JSON: EOF while parsing a value"
    );
    assert_eq!(
        error_of(
            &[CATALOG, "--to", "gemini", "--messages", "-"],
            Some(br#"[{"role": "user", "content": "Hi"}, {"role": "assistant", "toolCalls": [{"id": "a", "arguments": {}}]}]"#)
        ),
        "-: /1/toolCalls/0: missing field `name`"
    );
    assert_eq!(
        error_of(
            &[CATALOG, "--to", "gemini", "--messages", "-"],
            Some(br#"{"messages": [{"role": "system", "content": "Be brief."}]}"#)
        ),
        "-: /messages/0/role: the system prompt travels apart from the messages: give it as the conversation's `system`, not as a \"system\" message"
    );
    assert_eq!(
        error_of(
            &[CATALOG, "--to", "gemini", "--messages", "-"],
            Some(br#"{"messages": [{"role": "user", "content": "Hi"}, {"role": "tool", "toolCallId": "a", "content": "x"}]}"#)
        ),
        "-: /messages/1: the tool message answers \"a\", but no assistant message with calls comes right before it"
    );
    assert_eq!(
        error_of(&[CATALOG, "--to", "gemini", "--messages", "-"], Some(b"[]")),
        "-: the conversation has no messages; add the user's first message"
    );
    assert_eq!(
        error_of(
            &[
                CATALOG,
                "--to",
                "gemini",
                "--system",
                SYSTEM,
                "--messages",
                "fixtures/conversations/mixed-history.json"
            ],
            None
        ),
        "the system prompt is given twice: in fixtures/conversations/system.md (--system) and in fixtures/conversations/mixed-history.json; keep one"
    );
    assert!(
        error_of(
            &[
                CATALOG,
                "--to",
                "gemini",
                "--messages",
                "fixtures/conversations/nowhere.json"
            ],
            None
        )
        .starts_with("cannot read fixtures/conversations/nowhere.json")
    );
}

#[test]
fn standard_input_is_read_once() {
    assert_eq!(
        error_of(
            &[
                CATALOG,
                "--to",
                "gemini",
                "--system",
                "-",
                "--messages",
                "-"
            ],
            Some(b"[]")
        ),
        "--system and --messages cannot both read standard input; give one of them as a file"
    );
}

#[test]
fn mcp_is_not_a_request_target() {
    let run = request(&[CATALOG, "--to", "mcp", "--messages", FIRST], None);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("invalid value 'mcp' for '--to <TARGET>'"),
        "{}",
        run.stderr
    );
}
