//! `--tool NAME --args JSON`: one call typed on the command line.

use crate::common::validate::validate;

#[test]
fn valid_arguments_print_valid_and_exit_0() {
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        r#"{"city": "Lisbon", "days": 3, "units": "celsius"}"#,
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "valid\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn only_the_required_argument_is_enough() {
    let run = validate(&["--tool", "get_forecast", "--args", r#"{"city": "Lisbon"}"#]);
    run.assert_code(0);
    assert_eq!(run.stdout, "valid\n");
}

#[test]
fn errors_come_missing_then_wrong_type_then_constraints_then_unknown() {
    // The arguments are written in the opposite order, so the output order cannot be the
    // document's.
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        r#"{"unit": "celsius", "units": "kelvin", "days": "3"}"#,
    ]);
    run.assert_code(1);
    assert_eq!(run.stderr, "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "/city: missing: `city` is required (a string): City name, for example \"Lisbon\".",
            "/days: wrong-type: `days` must be an integer, not the string \"3\".",
            "/units: not-allowed: `units` must be one of \"celsius\" or \"fahrenheit\", not the \
             string \"kelvin\".",
            "/unit: unknown: `unit` is not an argument of this tool; remove it (it accepts only \
             `city`, `days` or `units`). Did you mean `units`?",
        ],
        "{}",
        run.stdout
    );
}

#[test]
fn each_constraint_is_its_own_line() {
    let run = validate(&[
        "--tool",
        "get_forecast",
        "--args",
        r#"{"city": "L", "days": 0}"#,
    ]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        "/city: length: `city` must be at least 2 characters; got the string \"L\".\n\
         /days: out-of-range: `days` must be at least 1; got the integer 0.\n"
    );
}

#[test]
fn an_unknown_tool_is_reported_with_the_closest_name() {
    let run = validate(&["--tool", "get_forcast", "--args", r#"{"city": "Lisbon"}"#]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        "unknown-tool: Unknown tool: get_forcast. Did you mean `get_forecast`?\n"
    );
}

#[test]
fn arguments_that_are_json_but_not_an_object_are_malformed() {
    let run = validate(&["--tool", "get_forecast", "--args", "[1]"]);
    run.assert_code(1);
    assert!(
        run.stdout
            .starts_with("malformed-arguments: Cannot call get_forecast: "),
        "{}",
        run.stdout
    );
}
