//! `--format json`: the same findings as data.

use crate::common::validate::validate;
use serde_json::{Value, json};

#[test]
fn one_call_is_one_object() {
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        r#"{"city": "Lisbon"}"#,
        "--format",
        "json",
    ]);
    run.assert_code(0);
    let report = run.json();
    assert_eq!(report["valid"], json!(true));
    assert_eq!(report["outcome"], json!("ok"));
    assert_eq!(report["tool"], json!("get_forecast"));
    assert!(report.get("errors").is_none(), "{report:#}");
}

#[test]
fn a_message_of_calls_is_an_array_with_every_error_as_data() {
    let run = validate(&[
        "--call",
        "fixtures/calls/chat-tool-calls.json",
        "--format",
        "json",
    ]);
    run.assert_code(1);
    let report = run.json();
    let calls = report.as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["valid"], json!(true));
    assert_eq!(calls[0]["call_id"], json!("call_lisbon"));
    assert_eq!(calls[1]["valid"], json!(false));
    assert_eq!(calls[1]["outcome"], json!("invalid-arguments"));
    let errors = calls[1]["errors"].as_array().unwrap();
    for error in errors {
        for key in ["kind", "pointer", "expected", "got", "message"] {
            assert!(error.get(key).is_some(), "no {key} in {error}");
        }
    }
    let summary: Vec<(&str, &str, &Value)> = errors
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap(),
                e["pointer"].as_str().unwrap(),
                &e["got"],
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("missing", "/city", &Value::Null),
            ("wrong-type", "/days", &json!("3")),
            ("not-allowed", "/units", &json!("kelvin")),
            ("unknown", "/color", &json!("red")),
        ]
    );
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn an_unknown_tool_carries_its_suggestions() {
    let run = validate(&["--tool", "get_forcast", "--args", "{}", "--format", "json"]);
    run.assert_code(1);
    let report = run.json();
    assert_eq!(report["valid"], json!(false));
    assert_eq!(report["outcome"], json!("unknown-tool"));
    assert_eq!(report["suggestions"], json!(["get_forecast"]));
    assert_eq!(report["tool"], Value::Null);
}
