//! The `toolpact` command: LLM tool contracts converted to every provider's format, calls
//! validated, definitions linted, served and checked over MCP, and pinned in a lock file.

use std::process::ExitCode;

// Checking or converting a large catalog allocates millions of small strings and maps, on
// several threads; mimalloc does that markedly faster than the system allocator
// (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    #[cfg(unix)]
    restart_with_allocator_settings();
    ExitCode::from(toolpact_cli::run(std::env::args_os()))
}

/// The mimalloc settings of `toolpact check`: no transparent huge pages. A check of a large
/// catalog allocates a gigabyte or two once; with huge pages the kernel clears 2 MiB at each
/// first touch, however little of it is used. Without them, on 100,000 real tools, the
/// check took 24.5 s instead of 25.2 s (means of six runs), half the system time, and
/// 1.99 GiB at its peak instead of 2.04 GiB (docs/benchmarks.md). A server that
/// `check -- COMMAND` starts inherits the setting, and mimalloc's switch that turns huge pages
/// off for the process; neither changes what the server answers.
const CHECK_MIMALLOC_SETTINGS: [(&str, &str); 1] = [("MIMALLOC_ALLOW_THP", "0")];

/// `toolpact proxy` stays up and serves bursts, where the other commands run once and exit:
/// it runs with the mimalloc settings that keep a long-lived process small
/// ([`toolpact_mcp::MIMALLOC_SETTINGS`]); `toolpact check` with those of a large one-off
/// allocation ([`CHECK_MIMALLOC_SETTINGS`]). mimalloc reads them from the environment when
/// the process starts, and setting them from Rust would take `unsafe` code, so the command
/// replaces itself (same process id, same standard input and output) with a copy of itself
/// that has them in its environment. A setting the user gave is kept; when every setting is
/// given, or the executable cannot be run again, the command runs in this process as it is.
#[cfg(unix)]
fn restart_with_allocator_settings() {
    use std::os::unix::process::CommandExt;
    let mut args = std::env::args_os();
    let arg0 = args.next();
    let settings: &[(&str, &str)] = match args.next().as_ref().and_then(|a| a.to_str()) {
        Some("proxy") => &toolpact_mcp::MIMALLOC_SETTINGS,
        Some("check") => &CHECK_MIMALLOC_SETTINGS,
        _ => return,
    };
    let missing: Vec<_> = settings
        .iter()
        .filter(|(name, _)| std::env::var_os(name).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut command = std::process::Command::new(exe);
    command.args(std::env::args_os().skip(1));
    if let Some(arg0) = arg0 {
        command.arg0(arg0);
    }
    for (name, value) in missing {
        command.env(name, value);
    }
    // `exec` returns only when it failed.
    let error = command.exec();
    eprintln!("toolpact: running with mimalloc's default settings: {error}");
}
