//! Exit codes: 0 when every tool converts, 1 when a tool is left out, 2 when the command
//! cannot run; and the message that goes with each.

use crate::common::convert::{TARGETS, exported_names};
use crate::common::toolpact;

#[test]
fn every_tool_converted_exits_0_for_every_target() {
    for target in TARGETS {
        let run = toolpact([
            "convert",
            "fixtures/seeds/get_forecast.json",
            "--to",
            target,
        ]);
        run.assert_code(0);
        assert_eq!(
            exported_names(target, &run.payload()),
            ["get_forecast"],
            "{target}"
        );
        assert!(
            run.stderr
                .contains(&format!("{target}: 1 of 1 tools converted")),
            "{target}: the summary should say the tool converted:\n{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("0 left out"),
            "{target}:\n{}",
            run.stderr
        );
    }
}

#[test]
fn a_tool_left_out_exits_1_and_the_others_are_still_written() {
    // summarize_url has a string schema at its root; no provider takes that.
    for target in TARGETS {
        let run = toolpact([
            "convert",
            "fixtures/lowering/root-not-object.json",
            "--to",
            target,
        ]);
        run.assert_code(1);
        assert_eq!(
            exported_names(target, &run.payload()),
            ["get_server_time"],
            "{target}: the payload should hold the tool that converted"
        );
        let line = run
            .stderr
            .lines()
            .find(|l| l.contains("left out:"))
            .unwrap_or_else(|| panic!("{target}: no `left out` line in:\n{}", run.stderr));
        assert!(
            line.starts_with("fixtures/lowering/root-not-object.json:3:5: summarize_url"),
            "{target}: the line should name the file, position and tool: {line}"
        );
        assert!(
            line.contains("\"object\""),
            "{target}: the reason should say an object is needed: {line}"
        );
        assert!(
            run.stderr.contains("1 of 2 tools converted") && run.stderr.contains("1 left out"),
            "{target}:\n{}",
            run.stderr
        );
    }
}

#[test]
fn strict_on_a_target_without_strict_mode_exits_2() {
    for target in ["mcp", "gemini", "gemini-json"] {
        let run = toolpact([
            "convert",
            "fixtures/seeds/get_forecast.json",
            "--to",
            target,
            "--strict",
        ]);
        run.assert_code(2);
        assert_eq!(run.stdout, "", "{target}: no payload on bad usage");
        assert_eq!(
            run.stderr.trim_end(),
            format!(
                "error: {target} has no strict mode; --strict applies to openai-responses, \
                 openai-chat and anthropic"
            )
        );
    }
}

#[test]
fn an_unknown_target_exits_2_and_lists_the_known_ones() {
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "--to",
        "claude",
    ]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("invalid value 'claude' for '--to <TARGET>'"),
        "{}",
        run.stderr
    );
    for target in TARGETS {
        assert!(
            run.stderr.contains(target),
            "{target} missing:\n{}",
            run.stderr
        );
    }
}

#[test]
fn missing_arguments_exit_2() {
    for args in [
        &["convert", "fixtures/seeds/get_forecast.json"][..],
        &["convert", "--to", "mcp"][..],
        &[
            "convert",
            "fixtures/seeds/get_forecast.json",
            "--to",
            "mcp",
            "--report",
            "xml",
        ][..],
    ] {
        let run = toolpact(args);
        run.assert_code(2);
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}:\n{}",
            run.stderr
        );
        assert_eq!(run.stdout, "", "{args:?}");
    }
}

#[test]
fn a_missing_file_exits_2_and_names_it() {
    let run = toolpact(["convert", "fixtures/seeds/no-such-file.json", "--to", "mcp"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("error: cannot read fixtures/seeds/no-such-file.json: "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("No such file"), "{}", run.stderr);
}

#[test]
fn a_directory_exits_2_and_says_it_is_one() {
    let run = toolpact(["convert", "fixtures/seeds", "--to", "mcp"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("error: fixtures/seeds is a directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bad_file_among_good_ones_stops_the_command_with_no_payload() {
    // Half a catalog is worse than none: the user would ship it without noticing.
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "fixtures/malformed/broken.json",
        "--to",
        "mcp",
    ]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("error: fixtures/malformed/broken.json:"),
        "{}",
        run.stderr
    );
}
