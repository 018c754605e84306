//! `--allow`, `--withhold-destructive` and `--allow-destructive`: which of the upstream's
//! tools the client is shown at all.

use super::{NOTES, listed, serve};

#[test]
fn only_the_tools_the_allow_list_names_reach_the_client() {
    let listed = listed(&["--allow", "read_note,delete_note"], &serve(&[NOTES]));
    assert_eq!(listed.names, ["read_note", "delete_note"]);
    for tool in ["list_notes", "save_note", "purge_notes"] {
        assert_eq!(
            listed.reason("tool-withheld", tool, "policy"),
            "the policy's allow list does not name it"
        );
    }
}

#[test]
fn withholding_destructive_tools_keeps_the_read_only_the_additive_and_those_allowed() {
    let upstream = serve(&[NOTES]);
    let strict = listed(&["--withhold-destructive"], &upstream);
    assert_eq!(strict.names, ["list_notes", "read_note", "save_note"]);
    // Marked destructive, and destructive by the specification's default when unmarked.
    assert_eq!(
        strict.tools("tool-withheld"),
        ["delete_note", "purge_notes"]
    );
    assert!(
        strict
            .reason("tool-withheld", "purge_notes", "policy")
            .starts_with("it may destroy data"),
        "{:?}",
        strict.events
    );
    let allowed = listed(
        &[
            "--withhold-destructive",
            "--allow-destructive",
            "delete_note",
        ],
        &upstream,
    );
    assert_eq!(
        allowed.names,
        ["list_notes", "read_note", "save_note", "delete_note"]
    );
    assert_eq!(allowed.tools("tool-withheld"), ["purge_notes"]);
}
