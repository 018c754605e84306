//! Snapshots of the text loss report on standard error: what a user reads to learn what a
//! provider could not take.

use crate::common::toolpact;

fn text_report(args: &[&str], code: i32) -> String {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    let run = toolpact(all);
    run.assert_code(code);
    run.stderr
}

#[test]
fn get_forecast_to_openai_chat_strict() {
    insta::assert_snapshot!(text_report(
        &[
            "fixtures/seeds/get_forecast.json",
            "--to",
            "openai-chat",
            "--strict"
        ],
        0
    ));
}

#[test]
fn get_forecast_to_anthropic_strict() {
    insta::assert_snapshot!(text_report(
        &[
            "fixtures/seeds/get_forecast.json",
            "--to",
            "anthropic",
            "--strict"
        ],
        0
    ));
}

#[test]
fn get_forecast_to_gemini() {
    insta::assert_snapshot!(text_report(
        &["fixtures/seeds/get_forecast.json", "--to", "gemini"],
        0
    ));
}

#[test]
fn dotted_names_to_openai_responses() {
    insta::assert_snapshot!(text_report(
        &[
            "fixtures/lowering/name-dotted.json",
            "--to",
            "openai-responses"
        ],
        0
    ));
}

#[test]
fn openai_responses_request_to_mcp_notes_the_skipped_web_search() {
    insta::assert_snapshot!(text_report(
        &[
            "fixtures/formats/openai-responses-request.json",
            "--to",
            "mcp"
        ],
        0
    ));
}

#[test]
fn root_not_object_to_openai_chat_reports_the_tool_left_out() {
    insta::assert_snapshot!(text_report(
        &[
            "fixtures/lowering/root-not-object.json",
            "--to",
            "openai-chat"
        ],
        1
    ));
}
