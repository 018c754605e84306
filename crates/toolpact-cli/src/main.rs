//! The `toolpact` command: LLM tool contracts converted to every provider's format, calls
//! validated, definitions linted, served and checked over MCP, and pinned in a lock file.

use std::process::ExitCode;

// Checking or converting a large catalog allocates millions of small strings and maps, on
// several threads; mimalloc does that markedly faster than the system allocator
// (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(toolpact_cli::run(std::env::args_os()))
}
