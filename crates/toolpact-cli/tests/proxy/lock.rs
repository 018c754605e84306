//! `--pin`, `--lock` and `--on-change`: the upstream's tools compared with the contracts a
//! lock file holds, from one session of the proxy to the next.

use super::{NOTE_TOOLS, NOTES, listed, serve};
use crate::common::mcp::{run, tools_of};
use serde_json::{Value, json};
use std::path::Path;

/// The notes catalog with two tools changed as a server may change them once they were
/// approved: `save_note` says something else, `delete_note` asks for one more argument.
/// Written into `dir`; returns its path.
fn changed_notes(dir: &Path) -> String {
    let mut tools = tools_of(NOTES);
    for tool in &mut tools {
        match tool["name"].as_str() {
            Some("save_note") => {
                tool["description"] = json!(
                    "Saves a new note for the user, or replaces the note with the same first line, and returns its id."
                );
            }
            Some("delete_note") => {
                tool["inputSchema"]["properties"]["reason"] = json!({
                    "type": "string",
                    "description": "Why the note is deleted, kept in the note's history."
                });
                tool["inputSchema"]["required"] = json!(["id", "reason"]);
            }
            _ => {}
        }
    }
    let path = dir.join("notes-changed.json");
    std::fs::write(&path, json!({ "tools": tools }).to_string()).unwrap();
    path.display().to_string()
}

/// The names of the tools a lock file holds, sorted.
fn locked_names(lock: &Path) -> Vec<String> {
    let lock: Value = serde_json::from_str(&std::fs::read_to_string(lock).unwrap()).unwrap();
    let mut names: Vec<String> = lock["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_pinned_tool_that_changed_by_the_next_session_is_withheld_and_the_unchanged_pass() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("toolpact.lock");
    let pin = ["--pin", lock.to_str().unwrap()];

    let first = listed(&pin, &serve(&[NOTES]));
    assert_eq!(first.names, NOTE_TOOLS);
    assert_eq!(first.events("tool-withheld").len(), 0, "{:?}", first.events);
    let mut expected = NOTE_TOOLS.map(str::to_owned).to_vec();
    expected.sort();
    assert_eq!(locked_names(&lock), expected);
    let pinned = std::fs::read(&lock).unwrap();

    let second = listed(&pin, &serve(&[&changed_notes(dir.path())]));
    assert_eq!(second.names, ["list_notes", "read_note", "purge_notes"]);
    assert_eq!(second.tools("tool-withheld"), ["save_note", "delete_note"]);
    let differs = format!("its contract differs from {}: ", lock.display());
    assert_eq!(
        second.reason("tool-withheld", "save_note", "lock"),
        format!(
            "{differs}description /description: tool description changed (… a new note for the [-user-]{{+user, or replaces the note with the same first line,+}} and returns its id.)"
        )
    );
    assert_eq!(
        second.reason("tool-withheld", "delete_note", "lock"),
        format!(
            "{differs}breaking /inputSchema/properties/reason: new required property \"reason\": callers that leave it out are refused"
        )
    );
    // The lock holds what was approved: a later session compares with it, never rewrites it.
    assert_eq!(std::fs::read(&lock).unwrap(), pinned);
}

#[test]
fn a_tool_the_lock_does_not_have_is_withheld_unless_on_change_warns() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("toolpact.lock");
    let lock_path = lock.to_str().unwrap();
    run(&["lock", NOTES, "--output", lock_path], &[]).assert_code(0);
    let upstream = serve(&[NOTES, "fixtures/proxy/share-note.json"]);
    let new_tool = format!("{lock_path} does not pin it (a new tool)");

    let by_default = listed(&["--lock", lock_path], &upstream);
    assert_eq!(by_default.names, NOTE_TOOLS);
    assert_eq!(
        by_default.reason("tool-withheld", "share_note", "lock"),
        new_tool
    );

    let warned = listed(&["--lock", lock_path, "--on-change", "warn"], &upstream);
    let mut every = NOTE_TOOLS.to_vec();
    every.push("share_note");
    assert_eq!(warned.names, every);
    assert_eq!(warned.reason("tool-warned", "share_note", "lock"), new_tool);
    assert_eq!(
        warned.events("tool-withheld").len(),
        0,
        "{:?}",
        warned.events
    );
}
