//! End-to-end tests of `toolpact check`, `toolpact rules` and `toolpact rule`: the binary is
//! run as a user runs it, and only what a user sees is checked (exit code, standard output,
//! standard error).

mod catalogs;
mod config;
mod exit_codes;
mod formats;
mod quality;
mod rules;
