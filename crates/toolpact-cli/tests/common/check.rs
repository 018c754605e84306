//! Running `toolpact check` as a user does, and reading its JSON report.

use crate::common::{Invocation, Run, workspace};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// The shipped catalog with findings of every category.
pub const MISTAKES: &str = "examples/catalogs/mistakes.json";

/// The shipped catalog that is clean at warning and above.
pub const GIFT_SHOP: &str = "examples/catalogs/gift-shop.json";

/// This binary's own fixtures, from the workspace root.
pub const FIXTURES: &str = "crates/toolpact-cli/tests/check/fixtures";

/// `toolpact check ARGS` from the workspace root.
pub fn check(args: &[&str]) -> Run {
    check_in(&workspace(), args)
}

/// `toolpact check ARGS` from `dir`, which is where `toolpact.toml` is looked for. Outside
/// the workspace, name catalogs with [`absolute`](crate::common::absolute).
pub fn check_in(dir: &Path, args: &[&str]) -> Run {
    Invocation::new(std::iter::once("check").chain(args.iter().copied()))
        .current_dir(dir)
        .run()
}

/// Writes `text` to `dir/name` and returns the file's path.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The findings of a `--format json` report.
pub fn findings(run: &Run) -> Vec<Value> {
    run.json()["findings"].as_array().unwrap().clone()
}

/// The codes of a `--format json` report's findings, each once.
pub fn codes(run: &Run) -> BTreeSet<String> {
    field(run, "code")
}

/// The value of one field of every finding of a `--format json` report, each once.
pub fn field(run: &Run, name: &str) -> BTreeSet<String> {
    findings(run)
        .iter()
        .map(|f| f[name].as_str().unwrap().to_owned())
        .collect()
}
