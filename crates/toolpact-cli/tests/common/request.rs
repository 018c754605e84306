//! What the `request` tests add to running the binary (the parent module): the shared catalog
//! and system prompt, and `toolpact request ARGS`.

use crate::common::{Invocation, Run};

/// The tools every test sends: the clean gift-shop catalog.
pub const CATALOG: &str = "examples/catalogs/gift-shop.json";

/// The shared system prompt.
pub const SYSTEM: &str = "fixtures/conversations/system.md";

/// `toolpact request ARGS`, run from the workspace root so paths read `fixtures/...`.
pub fn request(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let invocation = Invocation::new(std::iter::once("request").chain(args.iter().copied()));
    match stdin {
        Some(bytes) => invocation.stdin(bytes),
        None => invocation,
    }
    .run()
}
