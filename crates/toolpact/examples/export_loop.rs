//! Exports one catalog file to one target a given number of times: the fixed amount of work
//! `scripts/bench-instructions/run.sh` counts the instructions of, to compare the export of
//! two commits without the noise of wall-clock time.
//!
//! `cargo run --release -p toolpact --example export_loop -- CATALOG TARGET TIMES [--strict]`

use std::process::ExitCode;
use toolpact::{Catalog, ExportOptions, Target, export};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, target, times, rest @ ..] = args.as_slice() else {
        eprintln!("usage: export_loop CATALOG TARGET TIMES [--strict]");
        return ExitCode::from(2);
    };
    let target = match target.as_str() {
        "mcp" => Target::Mcp,
        "openai-responses" => Target::OpenAiResponses,
        "openai-chat" => Target::OpenAiChat,
        "anthropic" => Target::Anthropic,
        "gemini" => Target::Gemini,
        "gemini-json" => Target::GeminiJson,
        other => {
            eprintln!("export_loop: unknown target {other:?}");
            return ExitCode::from(2);
        }
    };
    let Ok(times) = times.parse::<usize>() else {
        eprintln!("export_loop: TIMES must be a whole number, not {times:?}");
        return ExitCode::from(2);
    };
    let strict = rest.iter().any(|a| a == "--strict");
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("export_loop: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let catalog = match Catalog::from_slice(&bytes, path, None) {
        Ok(catalog) => catalog,
        Err(e) => {
            eprintln!("export_loop: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut losses = 0;
    for _ in 0..times {
        match export(catalog.tools(), target, ExportOptions { strict }) {
            Ok(out) => losses += out.report.losses.len(),
            Err(e) => {
                eprintln!("export_loop: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("{losses} losses in {times} exports");
    ExitCode::SUCCESS
}
