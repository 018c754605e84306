//! `--call FILE`: calls in every provider's shape, from a file or standard input.

use crate::common::read;
use crate::common::validate::{FIXTURES, validate, validate_with_stdin};

const CHAT: &str = "fixtures/calls/chat-tool-calls.json";
const ANTHROPIC: &str = "fixtures/calls/anthropic-tool-use.json";
const GEMINI: &str = "fixtures/calls/gemini-function-calls.jsonl";

#[test]
fn a_chat_message_with_one_valid_and_one_invalid_call() {
    let run = validate(&["--call", CHAT]);
    run.assert_code(1);
    assert_eq!(run.stderr, "");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn each_call_of_a_message_is_named_by_position_id_and_tool() {
    let run = validate(&["--call", CHAT]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "call 1 call_lisbon (get_forecast): valid");
    let kinds: Vec<&str> = lines[1..]
        .iter()
        .map(|l| {
            let rest = l
                .strip_prefix("call 2 call_mars (get_forecast): ")
                .unwrap_or_else(|| panic!("not about call 2: {l}"));
            rest.split(": ").nth(1).unwrap()
        })
        .collect();
    assert_eq!(kinds, ["missing", "wrong-type", "not-allowed", "unknown"]);
}

#[test]
fn an_anthropic_tool_use_block() {
    let run = validate(&["--call", ANTHROPIC]);
    run.assert_code(0);
    assert_eq!(run.stdout, "valid\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn gemini_function_calls_as_json_lines() {
    let run = validate(&["--call", GEMINI]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        "call 1 (get_forecast): valid\n\
         call 2 (get_forecast): /city: length: `city` must be at least 2 characters; got the \
         string \"F\".\n\
         call 2 (get_forecast): /days: out-of-range: `days` must be at most 7; got the integer \
         8.\n"
    );
}

#[test]
fn a_dash_reads_the_call_from_standard_input() {
    for file in [CHAT, ANTHROPIC, GEMINI] {
        let from_file = validate(&["--call", file]);
        let from_stdin = validate_with_stdin(&["--call", "-"], &read(file));
        assert_eq!(from_stdin.code, from_file.code, "{file}");
        assert_eq!(from_stdin.stdout, from_file.stdout, "{file}");
        assert_eq!(from_stdin.stderr, "", "{file}");
    }
}

#[test]
fn a_chat_arguments_string_that_is_not_json_is_a_finding_not_a_failure() {
    // The model sent it: the call is still a call, and the model gets an error it can fix.
    let run = validate(&[
        "--call",
        &format!("{FIXTURES}/chat-malformed-arguments.json"),
    ]);
    run.assert_code(1);
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert!(
        run.stdout.starts_with(
            "malformed-arguments: Cannot call get_forecast: the arguments are not valid JSON \
             (EOF while parsing an object"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .trim_end()
            .ends_with("send the arguments as one JSON object."),
        "{}",
        run.stdout
    );
}
