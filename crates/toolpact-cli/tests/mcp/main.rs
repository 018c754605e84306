//! End-to-end tests of `toolpact serve` and `toolpact fetch`: the binary serves catalogs over
//! stdio and Streamable HTTP (127.0.0.1 only), and is driven by toolpact's MCP client, by raw
//! JSON-RPC lines, and by itself (`fetch` reading `serve`). Every process a test starts is
//! stopped by the test.

// Tests may unwrap and panic: either is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod demo;
mod fetch;
mod http;
mod live;
mod stdio;
mod wire;
