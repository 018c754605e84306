//! `--lenient`: the usual model slips are repaired, and every repair is reported.

use crate::common::validate::validate;
use serde_json::json;

const DAYS_AS_STRING: &str = r#"{"city": "Lisbon", "days": "3"}"#;

#[test]
fn without_lenient_a_numeric_string_is_the_wrong_type() {
    let run = validate(&["--tool", "get_forecast", "--args", DAYS_AS_STRING]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        "/days: wrong-type: `days` must be an integer, not the string \"3\".\n"
    );
}

#[test]
fn lenient_repairs_a_numeric_string_and_says_so() {
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        DAYS_AS_STRING,
        "--lenient",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "/days: repaired: \"3\" → 3\nvalid\n");
}

#[test]
fn lenient_repairs_appear_in_json() {
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        DAYS_AS_STRING,
        "--lenient",
        "--format",
        "json",
    ]);
    run.assert_code(0);
    let report = run.json();
    assert_eq!(report["valid"], json!(true));
    assert_eq!(
        report["repairs"],
        json!([{"pointer": "/days", "from": "3", "to": 3}])
    );
}

#[test]
fn lenient_repairs_nothing_that_is_not_a_slip() {
    // "kelvin" is no encoding of an allowed value: it stays an error.
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        r#"{"city": "Lisbon", "days": "3", "units": "kelvin"}"#,
        "--lenient",
    ]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        "/days: repaired: \"3\" → 3\n\
         /units: not-allowed: `units` must be one of \"celsius\" or \"fahrenheit\", not the \
         string \"kelvin\".\n"
    );
}
