//! Options of `toolpact convert`: `-o`, `-` for standard input, `--from`, `--report json`,
//! and `--help`.

use crate::common::convert::{TARGETS, exported_names, toolpact_with_stdin};
use crate::common::{toolpact, workspace};
use serde_json::Value;

#[test]
fn output_file_gets_the_payload_and_stdout_stays_empty() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tools.json");
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "--to",
        "anthropic",
        "-o",
        out.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "", "the payload goes to the file only");
    let written: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(exported_names("anthropic", &written), ["get_forecast"]);
    assert!(
        run.stderr.contains("anthropic: 1 of 1 tools converted"),
        "the report still goes to stderr:\n{}",
        run.stderr
    );
}

#[test]
fn output_file_is_written_even_when_a_tool_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tools.json");
    let run = toolpact([
        "convert",
        "fixtures/lowering/root-not-object.json",
        "--to",
        "gemini",
        "--output",
        out.to_str().unwrap(),
    ]);
    run.assert_code(1);
    assert_eq!(run.stdout, "");
    let written: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(exported_names("gemini", &written), ["get_server_time"]);
}

#[test]
fn output_into_a_missing_directory_exits_2_and_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("no-such-dir/tools.json");
    let out = out.to_str().unwrap();
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "--to",
        "mcp",
        "-o",
        out,
    ]);
    run.assert_code(2);
    assert!(
        run.stderr
            .starts_with(&format!("error: cannot write {out}")),
        "{}",
        run.stderr
    );
}

#[test]
fn dash_reads_standard_input() {
    let input = std::fs::read(workspace().join("fixtures/seeds/get_forecast.json")).unwrap();
    let run = toolpact_with_stdin(["convert", "-", "--to", "openai-chat"], &input);
    run.assert_code(0);
    assert_eq!(
        exported_names("openai-chat", &run.payload()),
        ["get_forecast"]
    );
    assert!(
        run.stderr.starts_with("-:3:5: get_forecast "),
        "losses should point into standard input as `-`:\n{}",
        run.stderr
    );
}

#[test]
fn dash_and_files_combine_in_order() {
    let input = std::fs::read(workspace().join("fixtures/lowering/name-dotted.json")).unwrap();
    let run = toolpact_with_stdin(
        [
            "convert",
            "fixtures/seeds/get_forecast.json",
            "-",
            "--to",
            "mcp",
        ],
        &input,
    );
    run.assert_code(0);
    assert_eq!(
        exported_names("mcp", &run.payload()),
        ["get_forecast", "admin.tools.list", "admin.users.suspend"]
    );
}

#[test]
fn from_forces_the_input_format() {
    let run = toolpact([
        "convert",
        "fixtures/formats/openai-chat-tools.json",
        "--from",
        "openai-chat",
        "--to",
        "mcp",
    ]);
    run.assert_code(0);
    let payload = run.payload();
    let names = exported_names("mcp", &payload);
    assert!(names.contains(&"get_forecast".to_owned()), "{names:?}");
    // Read as OpenAI Chat, `function.parameters` became the MCP input schema.
    assert_eq!(payload["tools"][0]["inputSchema"]["type"], "object");
    assert_eq!(
        payload["tools"][0]["inputSchema"]["properties"]["city"]["minLength"],
        2
    );
}

#[test]
fn from_reads_items_detection_would_reject() {
    // No `"type": "function"`, so nothing says this is OpenAI Chat until --from does.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("untyped-chat.json");
    std::fs::write(
        &path,
        br#"[{"function": {"name": "ping", "description": "Checks the server is up.", "parameters": {"type": "object"}}}]"#,
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let detected = toolpact(["convert", path, "--to", "mcp"]);
    detected.assert_code(2);
    let forced = toolpact(["convert", path, "--from", "openai-chat", "--to", "mcp"]);
    forced.assert_code(0);
    assert_eq!(exported_names("mcp", &forced.payload()), ["ping"]);
}

#[test]
fn from_that_does_not_match_the_file_exits_2_and_says_what_is_missing() {
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "--from",
        "openai-chat",
        "--to",
        "anthropic",
    ]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr.trim_end(),
        "error: fixtures/seeds/get_forecast.json:3:5: tool \"get_forecast\": an OpenAI Chat \
         tool needs a `function` object (at /tools/0/function)"
    );

    let run = toolpact([
        "convert",
        "fixtures/formats/openai-chat-tools.json",
        "--from",
        "anthropic",
        "--to",
        "mcp",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr
            .starts_with("error: fixtures/formats/openai-chat-tools.json:2:3: "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("input_schema"), "{}", run.stderr);
}

#[test]
fn from_an_unknown_format_exits_2() {
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "--from",
        "yaml",
        "--to",
        "mcp",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("invalid value 'yaml' for '--from <FORMAT>'"),
        "{}",
        run.stderr
    );
}

/// One run whose report has losses, a tool left out, renamed tools and import notes.
fn json_report() -> Value {
    let run = toolpact([
        "convert",
        "fixtures/lowering/name-dotted.json",
        "fixtures/lowering/root-not-object.json",
        "fixtures/formats/openai-responses-request.json",
        "--to",
        "openai-chat",
        "--report",
        "json",
    ]);
    run.assert_code(1);
    // The payload is untouched by the report format.
    assert_eq!(
        exported_names("openai-chat", &run.payload()),
        [
            "admin_tools_list",
            "admin_users_suspend",
            "get_server_time",
            "get_forecast",
            "search_database"
        ]
    );
    serde_json::from_str(&run.stderr)
        .unwrap_or_else(|e| panic!("stderr is not one JSON document ({e}):\n{}", run.stderr))
}

#[test]
fn report_json_has_target_counts_and_renames() {
    let report = json_report();
    assert_eq!(
        report["target"], "openai-chat",
        "the target is named as on the command line"
    );
    assert_eq!(report["strict"], false);
    assert_eq!(report["tools"], 6);
    assert_eq!(report["converted"], 5);
    assert_eq!(
        report["renamed"],
        serde_json::json!([
            {"original": "admin.tools.list", "exported": "admin_tools_list"},
            {"original": "admin.users.suspend", "exported": "admin_users_suspend"}
        ])
    );
}

#[test]
fn report_json_losses_and_left_out_carry_their_origin() {
    let report = json_report();
    let losses = report["losses"].as_array().unwrap();
    assert!(!losses.is_empty());
    for loss in losses {
        for key in ["tool", "pointer", "kind", "message"] {
            assert!(loss[key].is_string(), "{key} in {loss}");
        }
        let origin = &loss["origin"];
        assert!(origin["file"].is_string(), "{loss}");
        assert!(origin["line"].as_u64().unwrap() >= 1, "{loss}");
        assert!(origin["column"].as_u64().unwrap() >= 1, "{loss}");
    }
    let renamed = losses
        .iter()
        .find(|l| l["tool"] == "admin.users.suspend" && l["kind"] == "renamed")
        .unwrap();
    assert_eq!(renamed["pointer"], "/name");
    assert_eq!(
        renamed["origin"],
        serde_json::json!({
            "file": "fixtures/lowering/name-dotted.json",
            "pointer": "/tools/1",
            "line": 16,
            "column": 5
        })
    );

    let left_out = report["left_out"].as_array().unwrap();
    assert_eq!(left_out.len(), 1);
    assert_eq!(left_out[0]["tool"], "summarize_url");
    assert_eq!(left_out[0]["pointer"], "/inputSchema/type");
    assert!(
        left_out[0]["reason"]
            .as_str()
            .unwrap()
            .contains("\"object\"")
    );
    assert_eq!(
        left_out[0]["origin"],
        serde_json::json!({
            "file": "fixtures/lowering/root-not-object.json",
            "pointer": "/tools/0",
            "line": 3,
            "column": 5
        })
    );
}

#[test]
fn report_json_notes_say_what_the_import_skipped() {
    let report = json_report();
    let notes = report["notes"].as_array().unwrap();
    let skipped = notes
        .iter()
        .find(|n| n["message"].as_str().unwrap().contains("web_search"))
        .unwrap_or_else(|| panic!("no note about web_search in {notes:?}"));
    assert_eq!(skipped["tool"], Value::Null);
    assert_eq!(skipped["origin"]["pointer"], "/tools/2");
    assert_eq!(skipped["origin"]["line"], 87);
    assert_eq!(skipped["origin"]["column"], 5);
}

#[test]
fn report_json_on_a_clean_run_is_still_json() {
    let run = toolpact([
        "convert",
        "fixtures/seeds/get_forecast.json",
        "--to",
        "mcp",
        "--report",
        "json",
    ]);
    run.assert_code(0);
    let report: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(report["target"], "mcp");
    assert_eq!(report["converted"], 1);
    assert_eq!(report["losses"], serde_json::json!([]));
    assert_eq!(report["left_out"], serde_json::json!([]));
}

#[test]
fn help_lists_every_target_and_the_exit_codes() {
    let run = toolpact(["convert", "--help"]);
    run.assert_code(0);
    for target in TARGETS {
        assert!(
            run.stdout.contains(target),
            "{target} missing:\n{}",
            run.stdout
        );
    }
    for word in ["--strict", "--from", "--output", "--report", "Exit status"] {
        assert!(run.stdout.contains(word), "{word} missing:\n{}", run.stdout);
    }
}

#[test]
fn top_level_help_lists_convert() {
    let run = toolpact(["--help"]);
    run.assert_code(0);
    assert!(run.stdout.contains("convert"), "{}", run.stdout);
}
