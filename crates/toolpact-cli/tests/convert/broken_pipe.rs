//! A reader that stops early (`toolpact convert … | head`) is not an error: toolpact stops
//! quietly, as `cat` and ripgrep do.

use crate::common::catalogs::{realistic_catalog, write};
use crate::common::workspace;
use std::process::Command;

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // Megabytes of payload, far more than a pipe buffers, so the write meets the closed pipe.
    let doc = serde_json::to_vec_pretty(&realistic_catalog(3000)).unwrap();
    let big = write(dir.path(), "big.json", &doc);
    let status_file = dir.path().join("status");
    let output = Command::new("sh")
        .arg("-c")
        .arg(r#"{ "$0" convert "$1" --to mcp; echo $? > "$2"; } | head -c 10"#)
        .arg(env!("CARGO_BIN_EXE_toolpact"))
        .arg(&big)
        .arg(&status_file)
        .current_dir(workspace())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(output.stdout, b"{\n  \"tools");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr, "", "nothing on stderr, not even the report");
    let status = std::fs::read_to_string(&status_file).unwrap();
    assert_eq!(status.trim(), "0", "toolpact's own exit code");
}
