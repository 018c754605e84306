//! What the `request` tests add to running the binary (`common`): the shared catalog and
//! system prompt, and `toolpact request ARGS`.

use crate::common::Invocation;
pub use crate::common::{Run, read};

/// The tools every test sends: the clean gift-shop catalog.
pub const CATALOG: &str = "examples/catalogs/gift-shop.json";

/// The shared system prompt.
pub const SYSTEM: &str = "fixtures/conversations/system.md";

impl Run {
    /// Asserts that the command could not run: exit 2, nothing on stdout, one `error: ` line on
    /// stderr, which is returned without the prefix.
    pub fn usage_error(&self) -> &str {
        self.assert_error()
            .strip_prefix("error: ")
            .unwrap_or_default()
            .trim_end()
    }
}

/// `toolpact request ARGS`, run from the workspace root so paths read `fixtures/...`.
pub fn request(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let invocation = Invocation::new(std::iter::once("request").chain(args.iter().copied()));
    match stdin {
        Some(bytes) => invocation.stdin(bytes),
        None => invocation,
    }
    .run()
}
