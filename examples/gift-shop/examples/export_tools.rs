//! Prints the gift shop's tools as an MCP `tools/list` result, for `toolpact check` or
//! `toolpact convert`:
//!
//! ```sh
//! cargo run -p toolpact-gift-shop --example export_tools > gift-shop-tools.json
//! cargo run -p toolpact-cli -- check gift-shop-tools.json
//! ```

use gift_shop::GiftShop;
use std::io::Write;
use std::process::ExitCode;
use toolpact::{ExportOptions, Target};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("export_tools: {error}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let registry = GiftShop::in_memory()?.try_registry()?;
    let export = toolpact::export(registry.tools(), Target::Mcp, ExportOptions::default())?;
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &export.payload)?;
    writeln!(stdout)?;
    Ok(())
}
