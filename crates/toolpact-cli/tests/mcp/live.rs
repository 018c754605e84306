//! `check`, `lock` and `diff` reading a live server (`-- COMMAND…`) give what they give for
//! the same tools in a file.

use crate::common::bin;
use crate::common::mcp::run;
use serde_json::Value;

const CATALOG: &str = "examples/catalogs/mistakes.json";

#[test]
fn check_reports_a_live_server_as_it_reports_the_file() {
    let from_file = run(&["check", "--format", "json", CATALOG], &[]);
    let live = run(
        &["check", "--format", "json", "--", bin(), "serve", CATALOG],
        &[],
    );
    assert_eq!(live.code, from_file.code, "{}", live.stderr);
    let findings = |stdout: &str| -> Vec<(String, String, String)> {
        let doc: Value = serde_json::from_str(stdout).unwrap();
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_owned(),
                    f["tool"].as_str().unwrap_or_default().to_owned(),
                    f["pointer"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let expected = findings(&from_file.stdout);
    assert!(!expected.is_empty());
    assert_eq!(findings(&live.stdout), expected);
}

#[test]
fn a_live_server_locks_and_diffs_like_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("toolpact.lock");
    let lock = lock.to_str().unwrap();
    let locked = run(
        &[
            "lock",
            "-o",
            lock,
            "--",
            bin(),
            "serve",
            "examples/catalogs/gift-shop.json",
        ],
        &[],
    );
    assert_eq!(locked.code, 0, "{}", locked.stderr);
    assert_eq!(
        std::fs::read_to_string(lock).unwrap(),
        std::fs::read_to_string(crate::common::absolute("examples/catalogs/gift-shop.lock"))
            .unwrap()
    );

    let unchanged = run(
        &[
            "diff",
            lock,
            "--",
            bin(),
            "serve",
            "examples/catalogs/gift-shop.json",
        ],
        &[],
    );
    assert_eq!(unchanged.code, 0, "{}", unchanged.stderr);
    let changed = run(
        &[
            "diff",
            lock,
            "--",
            bin(),
            "serve",
            "examples/catalogs/gift-shop-v2.json",
        ],
        &[],
    );
    assert_eq!(changed.code, 1, "{}", changed.stderr);
    let from_files = run(&["diff", lock, "examples/catalogs/gift-shop-v2.json"], &[]);
    assert_eq!(changed.stdout, from_files.stdout);

    let both = run(
        &[
            "diff",
            lock,
            "examples/catalogs/gift-shop-v2.json",
            "--",
            bin(),
            "serve",
            CATALOG,
        ],
        &[],
    );
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("not both"), "{}", both.stderr);
}
