//! Exit 2 when the command cannot run: bad usage or unreadable input. Findings in a call are
//! exit 1, never 2.

use crate::common::validate::{FIXTURES, toolpact, validate};

#[test]
fn a_missing_catalog_exits_2_and_names_it() {
    let run = toolpact(
        &[
            "validate",
            "fixtures/seeds/no-such-catalog.json",
            "--tool",
            "get_forecast",
            "--args",
            "{}",
        ],
        None,
    );
    let error = run.assert_usage_error();
    assert!(
        error.starts_with("error: cannot read fixtures/seeds/no-such-catalog.json: "),
        "{error}"
    );
}

#[test]
fn a_call_file_that_is_not_json_exits_2_and_names_it() {
    let file = format!("{FIXTURES}/broken-call.json");
    let run = validate(&["--call", &file]);
    let error = run.assert_usage_error();
    assert!(error.starts_with(&format!("error: {file}:")), "{error}");
}

#[test]
fn a_broken_call_file_is_reported_where_the_json_breaks() {
    // broken-call.json is one JSON object missing the comma at the end of line 4; the parser
    // stops at line 5, column 3. A position on line 1 sends the user to the wrong place.
    let file = format!("{FIXTURES}/broken-call.json");
    let run = validate(&["--call", &file]);
    let error = run.assert_usage_error();
    assert!(
        error.contains("5:3") && error.contains("expected `,` or `}`"),
        "the error should point at line 5, column 3 (expected `,` or `}}`), got:\n{error}"
    );
}

#[test]
fn the_position_follows_the_file_name_as_convert_writes_it() {
    // `FILE:LINE:COLUMN:` is what `toolpact convert` prints and what editors and terminals
    // turn into a link; `FILE: LINE:COLUMN:` is neither.
    let file = format!("{FIXTURES}/broken-second-line.jsonl");
    let run = validate(&["--call", &file]);
    let error = run.assert_usage_error();
    assert!(
        error.starts_with(&format!("error: {file}:2:")),
        "expected `error: {file}:2:COLUMN: ...`, got:\n{error}"
    );
}

#[test]
fn args_that_are_not_json_exit_2() {
    let run = validate(&["--tool", "get_forecast", "--args", "{city: Lisbon}"]);
    let error = run.assert_usage_error();
    assert!(
        error.starts_with("error: --args is not valid JSON: "),
        "{error}"
    );
}

#[test]
fn tool_without_args_exits_2() {
    let run = validate(&["--tool", "get_forecast"]);
    let error = run.assert_usage_error();
    assert!(error.contains("--args <JSON>"), "{error}");
}

#[test]
fn neither_call_nor_tool_exits_2() {
    let run = validate(&[]);
    let error = run.assert_usage_error();
    assert!(error.contains("--call <FILE>"), "{error}");
}

#[test]
fn call_and_tool_together_exit_2() {
    let run = validate(&[
        "--call",
        "fixtures/calls/anthropic-tool-use.json",
        "--tool",
        "get_forecast",
        "--args",
        "{}",
    ]);
    let error = run.assert_usage_error();
    assert!(error.contains("cannot be used with"), "{error}");
}
