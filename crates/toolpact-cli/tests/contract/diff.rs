//! `toolpact diff`: every fixture pair as text and JSON (snapshots), exit codes for each
//! `--fail-on`, lock files as either side, and errors.

use crate::common::contract::{diff_cases, toolpact, toolpact_with_stdin};
use crate::common::workspace;

fn diff(case: &str, extra: &[&str]) -> crate::common::Run {
    let old = format!("fixtures/diff/{case}/old.json");
    let new = format!("fixtures/diff/{case}/new.json");
    let mut args = vec!["diff", old.as_str(), new.as_str()];
    args.extend_from_slice(extra);
    toolpact(args)
}

#[test]
fn every_fixture_pair_as_text_and_json() {
    let cases = diff_cases();
    assert!(cases.len() >= 30, "{cases:?}");
    for case in &cases {
        let text = diff(case, &["--fail-on", "never"]);
        text.assert_code(0);
        insta::assert_snapshot!(format!("{case}.text"), text.stdout);
        let json = diff(case, &["--format", "json", "--fail-on", "never"]);
        json.assert_code(0);
        insta::assert_snapshot!(format!("{case}.json"), json.stdout);
        let value = json.json();
        assert_eq!(
            value["summary"]["changes"].as_u64().unwrap() as usize,
            value["changes"].as_array().unwrap().len()
        );
    }
}

#[test]
fn the_exit_status_follows_fail_on() {
    for case in diff_cases() {
        let class = case.split('-').next().unwrap();
        let expect = |fail_on: &str| -> i32 {
            let reached = match fail_on {
                "breaking" => class == "breaking",
                "behaviour" => matches!(class, "breaking" | "behaviour"),
                "any" => class != "unchanged",
                _ => false,
            };
            i32::from(reached)
        };
        // The default is --fail-on breaking.
        diff(&case, &[]).assert_code(expect("breaking"));
        for fail_on in ["breaking", "behaviour", "any", "never"] {
            diff(&case, &["--fail-on", fail_on]).assert_code(expect(fail_on));
        }
    }
}

#[test]
fn a_lock_file_can_be_either_side() {
    let lock = "examples/catalogs/gift-shop.lock";
    let v2 = "examples/catalogs/gift-shop-v2.json";
    let forward = toolpact(["diff", lock, v2]);
    forward.assert_code(1);
    insta::assert_snapshot!("gift-shop-lock-to-v2", forward.stdout);

    let same = toolpact(["diff", lock, "examples/catalogs/gift-shop.json"]);
    same.assert_code(0);
    assert_eq!(same.stdout, "no changes\n");

    // Backwards, the new required property is gone (breaking) and the tool is read-only again.
    let backward = toolpact(["diff", v2, lock, "--format", "json"]);
    backward.assert_code(1);
    let kinds: Vec<String> = backward.json()["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["class"].as_str().unwrap(),
                c["kind"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        kinds.contains(&"breaking property-removed".to_owned()),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&"behaviour annotation-changed".to_owned()),
        "{kinds:?}"
    );
}

#[test]
fn the_readme_shows_the_real_output() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let run = toolpact([
        "diff",
        "examples/catalogs/gift-shop.lock",
        "examples/catalogs/gift-shop-v2.json",
    ]);
    assert!(
        readme.contains(&run.stdout),
        "README.md does not show the output of `toolpact diff examples/catalogs/gift-shop.lock examples/catalogs/gift-shop-v2.json`:\n{}",
        run.stdout
    );
}

#[test]
fn one_side_may_come_from_standard_input() {
    let old =
        std::fs::read(workspace().join("fixtures/diff/breaking-tool-removed/old.json")).unwrap();
    let run = toolpact_with_stdin(
        ["diff", "-", "fixtures/diff/breaking-tool-removed/new.json"],
        &old,
    );
    run.assert_code(1);
    assert!(
        run.stdout.contains("find_tables: tool removed"),
        "{}",
        run.stdout
    );

    let both = toolpact_with_stdin(["diff", "-", "-"], &old);
    assert!(
        both.assert_error().contains("only one side"),
        "{}",
        both.stderr
    );
}

#[test]
fn unreadable_sides_are_errors_that_name_the_file() {
    let run = toolpact([
        "diff",
        "fixtures/diff/nothing-here.json",
        "examples/catalogs/gift-shop.json",
    ]);
    assert!(
        run.assert_error()
            .contains("fixtures/diff/nothing-here.json"),
        "{}",
        run.stderr
    );
    let run = toolpact([
        "diff",
        "examples/catalogs/gift-shop.json",
        "fixtures/malformed/broken.json",
    ]);
    assert!(
        run.assert_error()
            .contains("fixtures/malformed/broken.json:"),
        "{}",
        run.stderr
    );
    let run = toolpact(["diff", "a.json", "b.json", "--fail-on", "sometimes"]);
    run.assert_code(2);
    assert!(run.stderr.contains("sometimes"), "{}", run.stderr);
}
