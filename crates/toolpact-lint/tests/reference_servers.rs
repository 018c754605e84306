//! Precision on real tools: the `tools/list` of the official MCP reference servers (captured
//! by `scripts/reference-servers/capture.sh` from pinned npm versions), checked with the
//! default settings. Every finding was reviewed by hand; the snapshots keep the reviewed set,
//! so a rule change that adds or drops findings on real tools shows up here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use std::path::PathBuf;
use toolpact::Catalog;
use toolpact_lint::{Settings, check};

fn captured() -> PathBuf {
    let dir = std::env::var("TOOLPACT_REFERENCE_SERVERS").map_or_else(
        |_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/reference-servers/tools-2026.8.31")
        },
        PathBuf::from,
    );
    assert!(
        dir.join("everything.json").is_file(),
        "no captured reference servers in {}; run scripts/reference-servers/capture.sh (.ci/run does)",
        dir.display()
    );
    dir
}

#[test]
fn reference_servers_findings_are_the_reviewed_ones() {
    let dir = captured();
    for server in ["everything", "filesystem", "memory", "sequential-thinking"] {
        let text = std::fs::read_to_string(dir.join(format!("{server}.json"))).unwrap();
        let catalog = Catalog::from_str_named(&text, &format!("{server}.json"), None).unwrap();
        assert!(!catalog.is_empty(), "{server} lists no tools");
        let report = check(&catalog, &Settings::default());
        let lines: Vec<String> = report
            .findings
            .iter()
            .map(|f| {
                format!(
                    "{} {} {} {}{}: {}",
                    f.severity,
                    f.code,
                    f.name,
                    f.tool.as_deref().unwrap_or("(catalog)"),
                    f.pointer,
                    f.message
                )
            })
            .collect();
        insta::assert_snapshot!(format!("reference-{server}"), lines.join("\n"));
    }
}
