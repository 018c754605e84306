//! End-to-end tests of `toolpact request`: the binary is run as a user runs it, and only what
//! a user sees is checked (exit code, standard output, standard error, files written).

// Tests may unwrap and panic: either is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;

mod bodies;
mod cli;
mod errors;
