//! What the `lock`, `diff` and `check --locked` tests add to running the binary (the parent
//! module): the diff fixture pairs, and runs from another directory, without colour.

use crate::common::{Invocation, Run, workspace};
use std::ffi::OsStr;
use std::path::Path;

/// The fixture pairs under `fixtures/diff/`, sorted by name.
pub fn diff_cases() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(workspace().join("fixtures/diff"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// Runs `toolpact ARGS` from the workspace root with no standard input.
pub fn toolpact<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_in(&workspace(), args, None)
}

/// Runs `toolpact ARGS` from the workspace root with `stdin` on standard input.
pub fn toolpact_with_stdin<I, S>(args: I, stdin: &[u8]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_in(&workspace(), args, Some(stdin))
}

/// Runs `toolpact ARGS` from `dir`.
pub fn run_in<I, S>(dir: &Path, args: I, stdin: Option<&[u8]>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let invocation = Invocation::new(args).current_dir(dir).env("NO_COLOR", "1");
    match stdin {
        Some(bytes) => invocation.stdin(bytes),
        None => invocation,
    }
    .run()
}
