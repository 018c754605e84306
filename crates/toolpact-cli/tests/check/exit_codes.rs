//! Exit codes, as CI relies on them: 0 when no finding reaches `--fail-on` (default `error`),
//! 1 when one does, 2 when the check could not run, with one `error: ` message that says why.

use crate::common::check::{FIXTURES, GIFT_SHOP, MISTAKES, check};

#[test]
fn a_catalog_clean_at_error_exits_0() {
    let run = check(&[GIFT_SHOP]);
    run.assert_code(0);
    assert_eq!(run.stderr, "");
}

#[test]
fn a_finding_at_error_exits_1_and_the_report_goes_to_stdout() {
    let run = check(&[MISTAKES]);
    run.assert_code(1);
    assert_eq!(run.stderr, "", "findings are the report, not errors");
    assert!(
        run.stdout.contains("error[TP"),
        "the report lists the errors:\n{}",
        run.stdout
    );
}

#[test]
fn fail_on_moves_the_threshold() {
    // The gift shop has informational findings only.
    check(&[GIFT_SHOP, "--fail-on", "warning"]).assert_code(0);
    check(&[GIFT_SHOP, "--fail-on", "info"]).assert_code(1);
    check(&[MISTAKES, "--fail-on", "never"]).assert_code(0);
}

#[test]
fn errors_in_any_of_several_files_fail_the_check() {
    check(&[GIFT_SHOP, MISTAKES]).assert_code(1);
    check(&[MISTAKES, GIFT_SHOP]).assert_code(1);
}

#[test]
fn no_file_is_a_usage_error() {
    let run = check(&[]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with("error: the following required arguments were not provided:"),
        "{stderr}"
    );
    assert!(stderr.contains("<FILE>"), "{stderr}");
}

#[test]
fn an_unknown_format_is_a_usage_error_naming_the_choices() {
    let run = check(&[MISTAKES, "--format", "yaml"]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with("error: invalid value 'yaml' for '--format <FORMAT>'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[possible values: text, json, sarif, github]"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_rule_in_select_or_ignore_is_an_error_naming_it() {
    for flag in ["--select", "--ignore"] {
        let run = check(&[MISTAKES, flag, "TP001,no-such-rule"]);
        let stderr = run.assert_error();
        assert!(
            stderr.contains(
                "\"no-such-rule\" names no rule, code prefix or category (see `toolpact rules`)"
            ),
            "{flag}: {stderr}"
        );
    }
}

#[test]
fn an_unknown_target_is_an_error_naming_it() {
    let run = check(&[MISTAKES, "--targets", "anthropic,cobol"]);
    assert_eq!(
        run.assert_error(),
        "error: command line: targets: unknown target \"cobol\"; expected one of: mcp, openai-responses, \
         openai-chat, anthropic, gemini, gemini-json\n"
    );
}

#[test]
fn a_missing_file_exits_2_naming_it() {
    let file = format!("{FIXTURES}/no-such-catalog.json");
    let run = check(&[&file]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with(&format!("error: cannot read {file}: ")),
        "{stderr}"
    );
}

#[test]
fn a_directory_exits_2_naming_it() {
    let run = check(&["examples/catalogs"]);
    assert_eq!(
        run.assert_error(),
        "error: examples/catalogs is a directory; give the JSON files inside it\n"
    );
}

#[test]
fn malformed_json_exits_2_with_its_line_and_column() {
    // The comma after `"name": "get_forecast"` is missing: serde_json stops at the next key,
    // line 5, column 7.
    let file = format!("{FIXTURES}/missing-comma.json");
    let run = check(&[&file]);
    assert_eq!(
        run.assert_error(),
        format!("error: {file}:5:7: not valid JSON: expected `,` or `}}`\n")
    );
}

#[test]
fn a_finding_never_hides_an_unreadable_file() {
    // The first file has errors, the second cannot be read: the check could not run.
    let run = check(&[MISTAKES, "examples/catalogs/no-such.json"]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with("error: cannot read examples/catalogs/no-such.json: "),
        "{stderr}"
    );
}
