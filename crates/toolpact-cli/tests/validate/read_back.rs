//! `--target TARGET [--strict]`: calls a model makes to tools it saw through an export are
//! read back through that export before they are validated, and every change is reported.

use crate::common::validate::{FIXTURES, validate, validate_with_stdin};
use serde_json::json;

#[test]
fn without_target_a_strict_null_is_the_wrong_type() {
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        r#"{"city": "Lisbon", "days": null}"#,
    ]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        "/days: wrong-type: `days` must be an integer, not null.\n"
    );
}

#[test]
fn a_strict_openai_call_leaving_optional_properties_out_with_null_is_valid() {
    // A Responses `function_call` from a strict-mode model that leaves `days` and `units`
    // out the way strict mode asks: with null.
    let file = format!("{FIXTURES}/strict-responses-call.json");
    for target in ["openai-responses", "openai-chat"] {
        let run = validate(&["--call", &file, "--target", target, "--strict"]);
        run.assert_code(0);
        assert_eq!(
            run.stdout,
            "/days: read back: null → left out (OpenAI strict mode makes every property required; null is how the model leaves out the optional \"days\")\n\
             /units: read back: null → left out (OpenAI strict mode makes every property required; null is how the model leaves out the optional \"units\")\n\
             valid\n",
            "{target}"
        );
    }
    // Read against the export that sends the schema as written, the null stays wrong.
    let run = validate(&["--call", &file, "--target", "openai-responses"]);
    run.assert_code(1);
}

#[test]
fn a_strict_anthropic_call_leaving_optional_properties_out_with_null_is_valid() {
    // A `tool_use` block from a strict-mode Claude that sends null for the optional `days`.
    let call = r#"{"type": "tool_use", "id": "toolu_1", "name": "get_forecast", "input": {"city": "Lisbon", "days": null}}"#;
    let run = validate_with_stdin(
        &["--call", "-", "--target", "anthropic", "--strict"],
        call.as_bytes(),
    );
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        "/days: read back: null → left out (Anthropic strict mode keeps \"days\" optional, and a null sent for it stands for leaving it out)\nvalid\n"
    );
    // Without strict mode the export promised nothing about null: it stays wrong.
    let run = validate_with_stdin(&["--call", "-", "--target", "anthropic"], call.as_bytes());
    run.assert_code(1);
}

#[test]
fn a_gemini_enum_value_sent_as_a_string_is_read_as_the_value_in_json() {
    let catalog = format!("{FIXTURES}/integer-enum.json");
    let set_fan = |arguments: &str| {
        let args = [
            "validate", &catalog, "--tool", "set_fan", "--args", arguments, "--target", "gemini",
            "--format", "json",
        ];
        crate::common::validate::toolpact(&args, None)
    };
    let run = set_fan(r#"{"room": "office", "speed": "2"}"#);
    run.assert_code(0);
    let report = run.json();
    assert_eq!(report["valid"], json!(true));
    assert_eq!(report["arguments"], json!({"room": "office", "speed": 2}));
    assert_eq!(report["read_back"][0]["pointer"], "/speed");
    assert_eq!(report["read_back"][0]["from"], "2");
    assert_eq!(report["read_back"][0]["to"], 2);
    // A string standing for no value of the enum stays an error.
    let run = set_fan(r#"{"room": "office", "speed": "9"}"#);
    run.assert_code(1);
    assert_eq!(run.json()["valid"], json!(false));
}

#[test]
fn strict_needs_a_target_that_has_a_strict_mode() {
    let run = validate(&["--tool", "get_forecast", "--args", "{}", "--strict"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--target"), "{}", run.stderr);
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        "{}",
        "--target",
        "gemini",
        "--strict",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("gemini has no strict mode"),
        "{}",
        run.stderr
    );
}
