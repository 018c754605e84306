//! Lock files and `diff`: a lock file read writes back as a lock file that reads as the same
//! tools; a catalog locked and read back has the same contract hashes and no change against
//! itself; `diff` of two catalogs (the input split at a NUL byte) names only their tools, and
//! a catalog has no change against itself.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use toolpact::{Catalog, LockFile, Tool, contract_hash, diff, nfc};
use toolpact_fuzz::split_at_nul;

/// The lock file written and read back: the same tools, the same hashes.
fn assert_lock_round_trip(lock: &LockFile, what: &str) {
    let text = lock.to_json_string();
    match LockFile::from_str_named(&text, "again.lock") {
        Ok(again) => {
            let before: Vec<&Tool> = lock.tools().collect();
            let after: Vec<&Tool> = again.tools().collect();
            assert_eq!(
                before, after,
                "{what}: the lock file written reads back other tools"
            );
            for tool in after {
                let Some(locked) = lock.get(&tool.name) else {
                    panic!(
                        "{what}: tool {:?} read back is not in the lock file",
                        tool.name
                    );
                };
                assert_eq!(
                    LockFile::new([tool])
                        .ok()
                        .and_then(|l| l.get(locked.name()).cloned())
                        .as_ref(),
                    Some(locked)
                );
            }
        }
        Err(e) => panic!("{what}: the lock file written does not read: {e}\n{text}"),
    }
}

fn tools_of(bytes: &[u8], file: &str) -> Option<Vec<Tool>> {
    Catalog::from_slice(bytes, file, None)
        .ok()
        .map(|c| c.tools().cloned().collect())
}

fuzz_target!(|data: &[u8]| {
    let (head, tail) = split_at_nul(data);
    if let Ok(text) = std::str::from_utf8(head)
        && let Ok(lock) = LockFile::from_str_named(text, "fuzz.lock")
    {
        assert_lock_round_trip(&lock, "a lock file read");
    }
    let Some(old) = tools_of(head, "old.json") else {
        return;
    };
    assert!(
        diff(&old, &old).is_empty(),
        "a catalog differs from itself: {:#?}",
        diff(&old, &old)
    );
    if let Ok(lock) = LockFile::new(&old) {
        assert_lock_round_trip(&lock, "a catalog locked");
        let locked: Vec<Tool> = lock.tools().cloned().collect();
        assert_eq!(
            locked.len(),
            old.len(),
            "the lock file holds another number of tools"
        );
        // The lock file holds the tools sorted by name, with names in NFC.
        for tool in &old {
            let Some(back) = locked.iter().find(|t| t.name == nfc(&tool.name)) else {
                panic!("tool {:?} is not in its lock file", tool.name);
            };
            assert_eq!(
                contract_hash(tool),
                contract_hash(back),
                "locking changed the contract of {:?}",
                tool.name
            );
        }
        let changes = diff(&old, &locked);
        assert!(
            changes.is_empty(),
            "a catalog differs from its own lock file: {:#?}",
            changes.changes
        );
    }
    let Some(new) = tail.and_then(|tail| tools_of(tail, "new.json")) else {
        return;
    };
    let names: HashSet<String> = old.iter().chain(&new).map(|t| nfc(&t.name)).collect();
    let changes = diff(&old, &new);
    for change in &changes.changes {
        assert!(
            names.contains(&change.tool),
            "a change names tool {:?}, in neither catalog",
            change.tool
        );
    }
    for name in changes.changed_tools() {
        assert!(
            names.contains(name),
            "tool {name:?} changed, in neither catalog"
        );
    }
});
