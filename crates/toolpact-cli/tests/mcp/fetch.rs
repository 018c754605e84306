//! `toolpact fetch`: the tools of a live server, written as a `tools/list` result.

use crate::common::bin;
use crate::common::mcp::{run, tools_of};
use serde_json::{Value, json};

#[test]
fn fetch_reads_what_serve_serves() {
    let fetched = run(
        &[
            "fetch",
            "--",
            bin(),
            "serve",
            "examples/catalogs/gift-shop.json",
        ],
        &[],
    );
    assert_eq!(fetched.code, 0, "{}", fetched.stderr);
    let doc: Value = serde_json::from_str(&fetched.stdout).unwrap();
    assert_eq!(
        doc,
        json!({"tools": tools_of("examples/catalogs/gift-shop.json")})
    );
    assert!(
        fetched.stderr.ends_with(
            "serve examples/catalogs/gift-shop.json: 2 tools from toolpact 0.1.0 (MCP 2025-11-25)\n"
        ),
        "{}",
        fetched.stderr
    );

    // The file it writes is a catalog like any other.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    let file = file.to_str().unwrap();
    let written = run(
        &[
            "fetch",
            "-o",
            file,
            "--",
            bin(),
            "serve",
            "examples/catalogs/gift-shop.json",
        ],
        &[],
    );
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert_eq!(written.stdout, "");
    assert_eq!(std::fs::read_to_string(file).unwrap(), fetched.stdout);
    let converted = run(&["convert", file, "--to", "mcp"], &[]);
    assert_eq!(converted.code, 0, "{}", converted.stderr);
}

#[test]
#[cfg(unix)]
fn fetch_says_what_went_wrong() {
    let nothing = run(&["fetch"], &[]);
    assert_eq!(nothing.code, 2);
    assert_eq!(
        nothing.stderr,
        "error: give a server to read: `-- COMMAND ARGS…` for a stdio server, or --url URL\n"
    );

    let silent = run(
        &["fetch", "--timeout", "1", "--", "sh", "-c", "sleep 30"],
        &[],
    );
    assert_eq!(silent.code, 2);
    assert_eq!(
        silent.stderr,
        "error: sh -c 'sleep 30': the server did not answer initialize within 1 s\n"
    );

    let both = run(
        &["fetch", "--url", "http://127.0.0.1:9/mcp", "--", "sh"],
        &[],
    );
    assert_eq!(both.code, 2);
    assert!(
        both.stderr.contains("cannot be used with"),
        "{}",
        both.stderr
    );

    let no_token = run(
        &[
            "fetch",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--bearer-env",
            "TOOLPACT_TEST_UNSET_TOKEN",
        ],
        &[],
    );
    assert_eq!(no_token.code, 2);
    assert_eq!(
        no_token.stderr,
        "error: --bearer-env TOOLPACT_TEST_UNSET_TOKEN: the environment variable TOOLPACT_TEST_UNSET_TOKEN is not set (or not UTF-8): environment variable not found\n"
    );
}
