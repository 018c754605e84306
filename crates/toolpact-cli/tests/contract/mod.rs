//! End-to-end tests of `toolpact lock`, `toolpact diff` and `toolpact check --locked`: the
//! binary is run as a user runs it, and only what a user sees is checked (exit code, standard
//! output, standard error, files written).

mod diff;
mod lock;
mod locked;
