//! Writes the linter benchmark's generated catalog as an MCP `tools/list` result, for timing
//! `toolpact check` once on it (docs/benchmarks.md):
//!
//! ```sh
//! cargo run --release -p toolpact-lint --example large_catalog -- 100000 > /tmp/tools.json
//! ```

use std::io::Write;
use std::process::ExitCode;
use toolpact_bench_data::near_duplicates;

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let Some(n) = arg.as_deref().and_then(|a| a.parse::<usize>().ok()) else {
        eprintln!("usage: large_catalog TOOLS (how many tools, such as 100000)");
        return ExitCode::from(2);
    };
    let catalog = near_duplicates::catalog(n);
    let tools: Vec<&toolpact::Tool> = catalog.tools().collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = serde_json::to_writer(&mut out, &serde_json::json!({ "tools": tools }))
        .map_err(std::io::Error::from)
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("large_catalog: cannot write the catalog: {e}");
            ExitCode::FAILURE
        }
    }
}
