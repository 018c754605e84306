//! Configuration: `toolpact.toml` in the current directory or `--config FILE`; unknown keys,
//! rules and options are errors that name them; command-line flags override the file.
//!
//! Each test runs the binary from a fresh temporary directory, so the only configuration it
//! can find is the one the test wrote there.

use crate::common::absolute;
use crate::common::check::{GIFT_SHOP, MISTAKES, check, check_in, codes, findings, write};
use std::collections::BTreeSet;

/// A set of codes, for comparisons.
fn set(codes: &[&str]) -> BTreeSet<String> {
    codes.iter().map(|&c| c.to_owned()).collect()
}

#[test]
fn toolpact_toml_in_the_current_directory_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let mistakes = absolute(MISTAKES);
    let without = check_in(dir.path(), &[&mistakes, "--format", "json"]);
    without.assert_code(1);
    assert!(
        codes(&without).len() > 1,
        "mistakes.json has findings of several rules"
    );
    write(dir.path(), "toolpact.toml", "select = [\"invalid-name\"]\n");
    let with = check_in(dir.path(), &[&mistakes, "--format", "json"]);
    with.assert_code(1);
    assert_eq!(codes(&with), set(&["TP001"]));
}

#[test]
fn config_names_the_file_to_read_instead() {
    let dir = tempfile::tempdir().unwrap();
    let config = write(dir.path(), "lint.toml", "select = [\"invalid-name\"]\n");
    // Run from the workspace root, where there is no toolpact.toml.
    let run = check(&[MISTAKES, "--config", &config, "--format", "json"]);
    run.assert_code(1);
    assert_eq!(codes(&run), set(&["TP001"]));
}

#[test]
fn config_wins_over_toolpact_toml() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "toolpact.toml", "select = [\"invalid-name\"]\n");
    write(
        dir.path(),
        "other.toml",
        "select = [\"missing-property-description\"]\n",
    );
    let run = check_in(
        dir.path(),
        &[
            &absolute(MISTAKES),
            "--config",
            "other.toml",
            "--format",
            "json",
        ],
    );
    // missing-property-description is a warning: only invalid-name would fail the check.
    run.assert_code(0);
    assert_eq!(codes(&run), set(&["TP106"]));
}

#[test]
fn a_missing_config_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = check_in(dir.path(), &[&absolute(MISTAKES), "--config", "nope.toml"]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with("error: cannot read nope.toml: "),
        "{stderr}"
    );
}

#[test]
fn an_unknown_key_is_an_error_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "toolpact.toml", "selekt = [\"invalid-name\"]\n");
    let run = check_in(dir.path(), &[&absolute(MISTAKES)]);
    let stderr = run.assert_error();
    assert!(stderr.starts_with("error: toolpact.toml: "), "{stderr}");
    assert!(stderr.contains("unknown field `selekt`"), "{stderr}");
}

#[test]
fn an_unknown_rule_in_severity_is_an_error_naming_the_file_and_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let config = write(
        dir.path(),
        "lint.toml",
        "[severity]\nno-such-rule = \"error\"\n",
    );
    let run = check(&[MISTAKES, "--config", &config]);
    assert_eq!(
        run.assert_error(),
        format!("error: {config}: [severity]: no rule is named \"no-such-rule\"\n")
    );
}

#[test]
fn an_unknown_rule_option_is_an_error_naming_the_rule_s_options() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        "[rules.description-too-long]\nmaximum = 1500\n",
    );
    let run = check_in(dir.path(), &[&absolute(MISTAKES)]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with(
            "error: toolpact.toml: [rules.description-too-long]: unknown option \"maximum\"; description-too-long has options "
        ),
        "{stderr}"
    );
}

#[test]
fn select_on_the_command_line_replaces_the_file_s() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "toolpact.toml", "select = [\"invalid-name\"]\n");
    let run = check_in(
        dir.path(),
        &[
            &absolute(MISTAKES),
            "--select",
            "missing-property-description",
            "--format",
            "json",
        ],
    );
    // missing-property-description is a warning: only invalid-name would fail the check.
    run.assert_code(0);
    assert_eq!(codes(&run), set(&["TP106"]));
}

#[test]
fn ignore_on_the_command_line_applies_over_the_file_s_select() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        "select = [\"TP001\", \"TP106\"]\n",
    );
    let mistakes = absolute(MISTAKES);
    let both = check_in(dir.path(), &[&mistakes, "--format", "json"]);
    assert_eq!(codes(&both), set(&["TP001", "TP106"]));
    let run = check_in(
        dir.path(),
        &[&mistakes, "--ignore", "TP106", "--format", "json"],
    );
    assert_eq!(codes(&run), set(&["TP001"]));
}

#[test]
fn ignore_in_the_file_leaves_rules_out() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        "select = [\"TP001\", \"TP106\"]\nignore = [\"invalid-name\"]\n",
    );
    let run = check_in(dir.path(), &[&absolute(MISTAKES), "--format", "json"]);
    assert_eq!(codes(&run), set(&["TP106"]));
}

#[test]
fn a_lowered_severity_changes_the_findings_and_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        "select = [\"invalid-name\"]\n\n[severity]\ninvalid-name = \"warning\"\n",
    );
    let mistakes = absolute(MISTAKES);
    let run = check_in(dir.path(), &[&mistakes, "--format", "json"]);
    run.assert_code(0);
    let found = findings(&run);
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|f| f["severity"] == "warning"),
        "{found:#?}"
    );
    check_in(dir.path(), &[&mistakes, "--fail-on", "warning"]).assert_code(1);
}

#[test]
fn a_raised_severity_fails_a_clean_catalog() {
    // The gift shop's informational findings: raise the first one's rule to error.
    let before = check(&[GIFT_SHOP, "--format", "json"]);
    before.assert_code(0);
    let found = findings(&before);
    let first = found
        .first()
        .expect("the gift shop has informational findings");
    assert_eq!(first["severity"], "info");
    let name = first["name"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        &format!("[severity]\n{name} = \"error\"\n"),
    );
    let after = check_in(dir.path(), &[&absolute(GIFT_SHOP), "--format", "json"]);
    after.assert_code(1);
    let after = findings(&after);
    assert_eq!(
        after.len(),
        found.len(),
        "a severity changes no finding away"
    );
    for f in after {
        let expected = if f["name"] == name { "error" } else { "info" };
        assert_eq!(f["severity"], expected, "{f:#}");
    }
}

#[test]
fn a_rule_option_in_the_file_takes_effect() {
    let dir = tempfile::tempdir().unwrap();
    let gift_shop = absolute(GIFT_SHOP);
    write(
        dir.path(),
        "toolpact.toml",
        "select = [\"description-too-long\"]\n",
    );
    let default = check_in(dir.path(), &[&gift_shop, "--format", "json"]);
    default.assert_code(0);
    assert_eq!(codes(&default), set(&[]));
    write(
        dir.path(),
        "toolpact.toml",
        "select = [\"description-too-long\"]\n\n[rules.description-too-long]\nmax = 20\n",
    );
    let short = check_in(dir.path(), &[&gift_shop, "--format", "json"]);
    assert_eq!(codes(&short), set(&["TP105"]));
}

#[test]
fn a_rule_named_on_the_command_line_runs_even_if_the_file_ignores_it() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        "ignore = [\"invalid-name\", \"TP1\"]\n",
    );
    let mistakes = absolute(MISTAKES);
    let named = check_in(
        dir.path(),
        &[
            &mistakes,
            "--select",
            "invalid-name,TP10",
            "--format",
            "json",
        ],
    );
    // Named one by one, invalid-name comes back; the TP10 prefix does not undo the file's
    // TP1, which stays ignored.
    named.assert_code(1);
    assert_eq!(codes(&named), set(&["TP001"]));
    // An ignore on the command line still wins over a command-line selection.
    let ignored = check_in(
        dir.path(),
        &[
            &mistakes,
            "--select",
            "invalid-name",
            "--ignore",
            "TP0",
            "--format",
            "json",
        ],
    );
    ignored.assert_code(0);
    assert_eq!(codes(&ignored), set(&[]));
}

#[test]
fn codes_and_code_prefixes_match_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "toolpact.toml",
        "select = [\"tp001\", \"Tp106\"]\n\n[severity]\ntp106 = \"error\"\n",
    );
    let run = check_in(dir.path(), &[&absolute(MISTAKES), "--format", "json"]);
    assert_eq!(codes(&run), set(&["TP001", "TP106"]));
    assert!(
        findings(&run)
            .iter()
            .filter(|f| f["code"] == "TP106")
            .all(|f| f["severity"] == "error"),
        "the severity keyed by a lower-case code applies"
    );
    let flag = check(&[MISTAKES, "--select", "tp00", "--format", "json"]);
    assert!(codes(&flag).iter().all(|c| c.starts_with("TP00")));
    assert!(codes(&flag).contains("TP001"));
}

#[test]
fn an_empty_select_is_an_error_rather_than_a_check_of_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "toolpact.toml", "select = []\n");
    let run = check_in(dir.path(), &[&absolute(MISTAKES)]);
    assert_eq!(
        run.assert_error().trim_end(),
        "error: toolpact.toml: select: the list is empty, so no rule would run; leave `select` out to run every rule"
    );
}

#[test]
fn errors_in_the_file_name_the_file_and_the_key_once() {
    let dir = tempfile::tempdir().unwrap();
    for (text, expected) in [
        (
            "select = [\"nope\"]\n",
            "error: toolpact.toml: select: \"nope\" names no rule, code prefix or category (see `toolpact rules`)",
        ),
        (
            "ignore = [\"nope\"]\n",
            "error: toolpact.toml: ignore: \"nope\" names no rule, code prefix or category (see `toolpact rules`)",
        ),
    ] {
        write(dir.path(), "toolpact.toml", text);
        let run = check_in(dir.path(), &[&absolute(MISTAKES)]);
        assert_eq!(run.assert_error().trim_end(), expected);
    }
    write(dir.path(), "toolpact.toml", "targets = [\"cobol\"]\n");
    let run = check_in(dir.path(), &[&absolute(MISTAKES)]);
    let stderr = run.assert_error();
    assert!(
        stderr.starts_with("error: toolpact.toml: targets: ") && stderr.contains("\"cobol\""),
        "{stderr}"
    );
    let flag = check(&[MISTAKES, "--select", "nope"]);
    assert_eq!(
        flag.assert_error().trim_end(),
        "error: command line: select: \"nope\" names no rule, code prefix or category (see `toolpact rules`)"
    );
}

#[test]
fn no_strict_on_the_command_line_turns_off_the_file_s_strict() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "toolpact.toml", "strict = true\n");
    let mistakes = absolute(MISTAKES);
    let strict = check_in(dir.path(), &[&mistakes, "--format", "json"]);
    let plain = check_in(dir.path(), &[&mistakes, "--no-strict", "--format", "json"]);
    let mentions_strict = |run: &crate::common::Run| {
        findings(run)
            .iter()
            .any(|f| f["message"].as_str().unwrap_or("").contains("(strict)"))
    };
    assert!(
        mentions_strict(&strict),
        "strict = true checks the strict variants"
    );
    assert!(!mentions_strict(&plain), "--no-strict leaves them out");
    let both = check(&[MISTAKES, "--strict", "--no-strict"]);
    assert!(both.assert_error().contains("cannot be used with"));
}
