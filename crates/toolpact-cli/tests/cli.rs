//! End-to-end tests of the `toolpact` command, one module per command: the binary is run as a
//! user runs it, and only what a user sees is checked (exit code, standard output, standard
//! error, files written). What the tests share, running the binary and reading what it left
//! behind, is in `common`.

// Tests may unwrap and panic: either is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

mod check;
mod contract;
mod convert;
mod mcp;
mod proxy;
mod request;
mod validate;
