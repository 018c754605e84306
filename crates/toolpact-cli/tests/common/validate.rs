//! What the `validate` tests add to running the binary (the parent module): the catalog every
//! test validates against, and `toolpact validate CATALOG ARGS`.

use crate::common::{Invocation, Run};

/// The catalog every test validates against: `get_forecast(city, days?, units?)`, closed to
/// other properties.
pub const CATALOG: &str = "fixtures/seeds/get_forecast.json";

/// This binary's own fixtures, from the workspace root.
pub const FIXTURES: &str = "crates/toolpact-cli/tests/validate/fixtures";

/// `toolpact validate CATALOG ARGS` with no standard input.
pub fn validate(args: &[&str]) -> Run {
    let mut all = vec!["validate", CATALOG];
    all.extend_from_slice(args);
    toolpact(&all, None)
}

/// `toolpact validate CATALOG ARGS` with `stdin` on standard input.
pub fn validate_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let mut all = vec!["validate", CATALOG];
    all.extend_from_slice(args);
    toolpact(&all, Some(stdin))
}

/// `toolpact ARGS`, run from the workspace root so paths read `fixtures/...`.
pub fn toolpact(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let invocation = Invocation::new(args);
    match stdin {
        Some(bytes) => invocation.stdin(bytes),
        None => invocation,
    }
    .run()
}
