//! `--on-finding` and `[proxy.findings]`: what the linter's findings on the upstream's tools
//! do. `fixtures/proxy/mail.json` holds a clean tool, a poisoned one (`send_mail`, whose
//! description hides a BCC from the user: TP507 concealment, an error) and a sloppy one
//! (`archive_mail`, whose description only restates its name: TP102, a warning).

use super::{Listed, listed, serve};
use crate::common::absolute;

/// The mail catalog the module's first lines describe.
const MAIL: &str = "fixtures/proxy/mail.json";

/// The tools of [`MAIL`], in order.
const EVERY_TOOL: [&str; 3] = ["list_folders", "send_mail", "archive_mail"];

/// Lists the tools of [`MAIL`] through `toolpact proxy FLAGS…`.
fn mail_listed(flags: &[&str]) -> Listed {
    listed(flags, &serve(&[MAIL]))
}

#[test]
fn a_poisoned_tool_is_withheld_by_default() {
    let listed = mail_listed(&[]);
    assert_eq!(listed.names, ["list_folders", "archive_mail"]);
    let reason = listed.reason("tool-withheld", "send_mail", "lint");
    assert!(reason.contains("TP507 concealment"), "{reason}");
}

#[test]
fn with_on_finding_warn_a_poisoned_tool_passes_and_its_finding_is_logged() {
    let listed = mail_listed(&["--on-finding", "warn"]);
    assert_eq!(listed.names, EVERY_TOOL);
    assert!(
        listed.events("tool-withheld").is_empty(),
        "{:?}",
        listed.events
    );
    let reason = listed.reason("tool-warned", "send_mail", "lint");
    assert!(
        reason.starts_with("the linter reports TP507 concealment at /description"),
        "{reason}"
    );
    // A warning-level finding of a quality rule acts only when the findings table names it.
    assert_eq!(listed.tools("tool-warned"), ["send_mail"]);
}

#[test]
fn with_on_finding_off_a_poisoned_tool_passes_and_no_finding_is_logged() {
    let listed = mail_listed(&["--on-finding", "off"]);
    assert_eq!(listed.names, EVERY_TOOL);
    assert_eq!(listed.checks(), [(3, 0, 0)], "{:?}", listed.events);
    assert!(
        listed.events("tool-warned").is_empty() && listed.events("tool-withheld").is_empty(),
        "{:?}",
        listed.events
    );
}

#[test]
fn the_findings_table_sets_the_action_of_one_rule_by_code_or_name() {
    let config = absolute("fixtures/proxy/findings.toml");
    let listed = mail_listed(&["--config", &config]);
    // concealment = "warn" lets the poisoned tool through; TP102 = "withhold" stops the sloppy
    // one, although its finding is only a warning of a quality rule.
    assert_eq!(listed.names, ["list_folders", "send_mail"]);
    let warned = listed.reason("tool-warned", "send_mail", "lint");
    assert!(warned.contains("TP507 concealment"), "{warned}");
    let withheld = listed.reason("tool-withheld", "archive_mail", "lint");
    assert!(
        withheld.starts_with("the linter reports TP102 description-restates-name"),
        "{withheld}"
    );
}
