//! Input toolpact cannot read: each run exits 2, writes no payload, and says which file,
//! where in it, and what is wrong. Nothing panics or overflows the stack.

use crate::common::catalogs::{noise_bytes, noise_text, write};
use crate::common::convert::assert_error_at;
use crate::common::{Run, toolpact, workspace};

/// What the message must say about each file of `fixtures/malformed/`, besides its position.
const EXPECTED: [(&str, &[&str]); 7] = [
    ("broken.json", &["not valid JSON", "EOF while parsing"]),
    ("invalid-utf8.json", &["not valid UTF-8"]),
    ("name-not-string.json", &["/tools/0/name", "string"]),
    ("no-input-schema.json", &["get_forecast", "inputSchema"]),
    ("not-tools.json", &["no tools found"]),
    (
        "null-input-schema.json",
        &["list_saved_addresses", "inputSchema", "null"],
    ),
    (
        "schema-is-string.json",
        &["get_forecast", "inputSchema", "string"],
    ),
];

fn convert_fails(file: &str) -> Run {
    let run = toolpact(["convert", file, "--to", "openai-chat"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "", "{file}: no payload for unreadable input");
    assert_error_at(&run, file);
    run
}

fn assert_says(run: &Run, file: &str, words: &[&str]) {
    for word in words {
        assert!(
            run.stderr.contains(word),
            "{file}: the message should mention {word:?}:\n{}",
            run.stderr
        );
    }
}

#[test]
fn every_malformed_fixture_exits_2_with_file_position_and_cause() {
    let dir = workspace().join("fixtures/malformed");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let known: Vec<&str> = EXPECTED.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names, known,
        "every file of fixtures/malformed/ needs an entry in EXPECTED"
    );
    // Collect every failure, so one run shows all the files that misbehave.
    let mut failures = Vec::new();
    for (name, words) in EXPECTED {
        let file = format!("fixtures/malformed/{name}");
        let result = std::panic::catch_unwind(|| {
            let run = convert_fails(&file);
            assert_says(&run, &file, words);
        });
        if let Err(e) = result {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            failures.push(message);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn nesting_10000_deep_exits_2_without_overflowing_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 10_000;
    let text = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    let path = write(dir.path(), "deep.json", text.as_bytes());
    let file = path.to_str().unwrap();
    let run = convert_fails(file);
    assert!(
        run.stderr.contains("nests deeper than"),
        "the message should say the nesting is too deep:\n{}",
        run.stderr
    );
}

#[test]
fn nested_arrays_10000_deep_exit_2_without_overflowing_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 10_000;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let path = write(dir.path(), "deep-array.json", text.as_bytes());
    let run = convert_fails(path.to_str().unwrap());
    assert!(run.stderr.contains("nests deeper than"), "{}", run.stderr);
}

fn large_noise_fails(name: &str, bytes: &[u8], words: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), name, bytes);
    let file = path.to_str().unwrap();
    let started = std::time::Instant::now();
    let run = convert_fails(file);
    // Timing is printed, not asserted: `cargo test -- --nocapture` shows it.
    println!(
        "{name}: {} bytes rejected in {:?}",
        bytes.len(),
        started.elapsed()
    );
    assert_says(&run, file, words);
}

#[test]
fn fifty_megabytes_of_binary_noise_exits_2() {
    large_noise_fails(
        "noise.bin",
        &noise_bytes(50 * 1024 * 1024),
        &["not valid UTF-8"],
    );
}

#[test]
fn fifty_megabytes_of_text_that_is_not_json_exits_2() {
    large_noise_fails(
        "noise.txt",
        &noise_text(50 * 1024 * 1024),
        &["not valid JSON"],
    );
}

#[test]
fn an_empty_file_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "empty.json", b"");
    let run = convert_fails(path.to_str().unwrap());
    assert!(
        run.stderr.contains("empty.json:1:1: the input is empty"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_json_rpc_error_response_exits_2_and_quotes_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let response = br#"{
  "jsonrpc": "2.0",
  "id": 1,
  "error": {"code": -32601, "message": "Method not found: tools/list"}
}
"#;
    let path = write(dir.path(), "error-response.json", response);
    let run = convert_fails(path.to_str().unwrap());
    assert_says(
        &run,
        "error-response.json",
        &["JSON-RPC error response", "Method not found: tools/list"],
    );
}

#[test]
fn a_json_scalar_exits_2_and_says_what_was_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "scalar.json", b"\"get_forecast\"\n");
    let run = convert_fails(path.to_str().unwrap());
    assert_says(&run, "scalar.json", &["no tools found", "string"]);
}

#[test]
fn standard_input_that_is_not_json_names_it_as_dash() {
    let run = crate::common::convert::toolpact_with_stdin(
        ["convert", "-", "--to", "mcp"],
        b"tools:\n  - get\n",
    );
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert_error_at(&run, "-");
}
