//! Lays out the `toolpact` binary's code by use: the functions its long-lived commands run
//! (`proxy`, `serve`, then `check`), listed in `symbol-order.txt`, are placed together at the
//! start of the program's code.
//!
//! The kernel maps a program's code in 64 KiB runs around each page a process touches, so
//! `toolpact proxy`, which runs about 3 MiB of functions spread over 19 MiB of machine code,
//! kept 12.7 MiB of it resident; laid out together they take about 4 MiB
//! (`docs/benchmarks.md`, "The binary's code, laid out by use"). The list is written by
//! `scripts/symbol-order/generate.py`; a function it does not name (a new one, or one whose
//! name changed with its crate's version) is placed where the linker would have put it, so a
//! stale list costs memory, never correctness.
//!
//! The list is given to the linker only where it is known to be LLVM's `lld`, which reads it:
//! optimised builds for `x86_64-unknown-linux-gnu` with rustc 1.90 or later (where `lld` is the
//! default linker) and no linker chosen in the configuration or the flags. Set
//! `TOOLPACT_SYMBOL_ORDER=0` to build without it.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=symbol-order.txt");
    println!("cargo::rerun-if-env-changed=TOOLPACT_SYMBOL_ORDER");
    if let Some(reason) = why_not() {
        // Said only where cargo shows a build script's output (`-vv`).
        println!("the code is laid out by the linker's defaults: {reason}");
        return;
    }
    let order = concat!(env!("CARGO_MANIFEST_DIR"), "/symbol-order.txt");
    println!("cargo::rustc-link-arg-bin=toolpact=-Wl,--symbol-ordering-file={order}");
    // The names of functions the build no longer has are expected after a dependency changes.
    println!("cargo::rustc-link-arg-bin=toolpact=-Wl,--no-warn-symbol-ordering");
}

/// Why the list is not given to the linker, or `None` when it is.
fn why_not() -> Option<String> {
    if env::var("TOOLPACT_SYMBOL_ORDER").is_ok_and(|v| v == "0") {
        return Some("TOOLPACT_SYMBOL_ORDER=0".into());
    }
    let target = env::var("TARGET").unwrap_or_default();
    if target != "x86_64-unknown-linux-gnu" {
        return Some(format!("the target is {target}"));
    }
    if env::var("OPT_LEVEL").is_ok_and(|level| level == "0") {
        return Some("an unoptimised build".into());
    }
    if let Ok(linker) = env::var("RUSTC_LINKER") {
        return Some(format!("the configuration chooses the linker {linker}"));
    }
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    for flag in flags.split('\x1f') {
        if ["linker", "link-self-contained", "fuse-ld"]
            .iter()
            .any(|word| flag.contains(word))
        {
            return Some(format!("the flags choose the linker ({flag})"));
        }
    }
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .unwrap_or_default();
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok());
    match minor {
        Some(minor) if minor >= 90 => None,
        Some(_) => Some(format!("{} links with the system's linker", version.trim())),
        None => Some(format!("the version of {rustc} is unknown")),
    }
}
