//! `toolpact lock`: where the lock file goes, what it holds, and what it refuses.

use crate::common::contract::{run_in, toolpact, toolpact_with_stdin};
use crate::common::workspace;

const GIFT_SHOP: &str = "examples/catalogs/gift-shop.json";
const GIFT_SHOP_LOCK: &str = "examples/catalogs/gift-shop.lock";

#[test]
fn the_shipped_lock_file_is_what_lock_writes() {
    let run = toolpact(["lock", GIFT_SHOP, "-o", "-"]);
    run.assert_code(0);
    let shipped = std::fs::read_to_string(workspace().join(GIFT_SHOP_LOCK)).unwrap();
    assert_eq!(
        run.stdout, shipped,
        "run `toolpact lock {GIFT_SHOP} -o {GIFT_SHOP_LOCK}` and review the change"
    );
    assert_eq!(
        run.stderr, "",
        "nothing but the lock file when it goes to stdout"
    );
}

#[test]
fn the_default_output_is_toolpact_lock_in_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = workspace().join(GIFT_SHOP);
    let run = run_in(
        dir.path(),
        [std::ffi::OsStr::new("lock"), catalog.as_os_str()],
        None,
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "toolpact.lock: 2 tools locked\n");
    let written = std::fs::read_to_string(dir.path().join("toolpact.lock")).unwrap();
    let shipped = std::fs::read_to_string(workspace().join(GIFT_SHOP_LOCK)).unwrap();
    assert_eq!(written, shipped);
}

#[test]
fn standard_input_and_any_format_are_read() {
    let text = std::fs::read(workspace().join(GIFT_SHOP)).unwrap();
    let from_stdin = toolpact_with_stdin(["lock", "-", "-o", "-"], &text);
    from_stdin.assert_code(0);
    let from_file = toolpact(["lock", GIFT_SHOP, "-o", "-"]);
    assert_eq!(from_stdin.stdout, from_file.stdout);

    // The three MCP shapes of the same tools pin the same contracts.
    let locks: Vec<String> = [
        "fixtures/formats/mcp-tools-list.json",
        "fixtures/formats/mcp-array.json",
        "fixtures/formats/mcp-jsonrpc-response.json",
    ]
    .iter()
    .map(|file| {
        let run = toolpact(["lock", file, "-o", "-"]);
        run.assert_code(0);
        run.stdout.clone()
    })
    .collect();
    assert_eq!(locks[0], locks[1]);
    assert_eq!(locks[0], locks[2]);

    // An Anthropic tools array is read too, and pinned as the tools it holds.
    let anthropic = toolpact(["lock", "fixtures/formats/anthropic-tools.json", "-o", "-"]);
    anthropic.assert_code(0);
    assert_eq!(anthropic.json()["tools"].as_array().unwrap().len(), 2);
}

#[test]
fn locking_a_lock_file_gives_the_same_lock_file() {
    let run = toolpact(["lock", GIFT_SHOP_LOCK, "-o", "-"]);
    run.assert_code(0);
    let shipped = std::fs::read_to_string(workspace().join(GIFT_SHOP_LOCK)).unwrap();
    assert_eq!(run.stdout, shipped);
}

#[test]
fn two_tools_with_one_name_are_refused() {
    let run = toolpact(["lock", GIFT_SHOP, GIFT_SHOP, "-o", "-"]);
    let message = run.assert_error();
    assert!(
        message.contains("two tools are named \"create_order\""),
        "{message}"
    );
}

#[test]
fn unreadable_input_says_which_file() {
    let run = toolpact(["lock", "fixtures/diff/missing.json", "-o", "-"]);
    assert!(
        run.assert_error()
            .contains("cannot read fixtures/diff/missing.json"),
        "{}",
        run.stderr
    );
    let run = toolpact(["lock", "fixtures/malformed/broken.json", "-o", "-"]);
    run.assert_error();
}

#[test]
fn a_damaged_lock_file_is_refused_with_where_and_what() {
    let shipped = std::fs::read_to_string(workspace().join(GIFT_SHOP_LOCK)).unwrap();
    let damaged = shipped.replacen("Order a gift", "Order two gifts", 1);
    assert_ne!(damaged, shipped);
    let run = toolpact_with_stdin(["lock", "-", "-o", "-"], damaged.as_bytes());
    let message = run.assert_error();
    assert!(
        message.starts_with("error: -:6:15: the tool \"create_order\" has hash sha256:"),
        "{message}"
    );
    assert!(
        message.trim_end().ends_with("(at /tools/0/hash)"),
        "{message}"
    );

    let future = shipped.replacen("\"toolpactLock\": 1", "\"toolpactLock\": 7", 1);
    let run = toolpact_with_stdin(["lock", "-", "-o", "-"], future.as_bytes());
    assert!(
        run.assert_error()
            .contains("-:2:19: the lock file has format version 7; this toolpact reads version 1"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_mode_says_whether_the_lock_file_is_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("toolpact.lock");
    let lock = lock.to_str().unwrap();
    let missing = toolpact(["lock", GIFT_SHOP, "-o", lock, "--check"]);
    missing.assert_code(1);
    assert_eq!(
        missing.stderr,
        format!("{lock}: no lock file; write it with `toolpact lock`\n")
    );
    assert!(
        !std::path::Path::new(lock).exists(),
        "--check writes nothing"
    );

    let fresh = toolpact(["lock", GIFT_SHOP, "-o", GIFT_SHOP_LOCK, "--check"]);
    fresh.assert_code(0);
    assert_eq!((fresh.stdout.as_str(), fresh.stderr.as_str()), ("", ""));

    let stale = toolpact([
        "lock",
        "examples/catalogs/gift-shop-v2.json",
        "-o",
        GIFT_SHOP_LOCK,
        "--check",
    ]);
    stale.assert_code(1);
    assert!(
        stale
            .stderr
            .starts_with(&format!("{GIFT_SHOP_LOCK} is stale (changed: ")),
        "{}",
        stale.stderr
    );
    let shipped = std::fs::read_to_string(workspace().join(GIFT_SHOP_LOCK)).unwrap();
    let after = toolpact(["lock", GIFT_SHOP, "-o", "-"]);
    assert_eq!(
        after.stdout, shipped,
        "--check left the lock file as it was"
    );

    let to_stdout = toolpact(["lock", GIFT_SHOP, "-o", "-", "--check"]);
    to_stdout.assert_code(2);
}
