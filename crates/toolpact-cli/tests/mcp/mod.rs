//! End-to-end tests of `toolpact serve` and `toolpact fetch`: the binary serves catalogs over
//! stdio and Streamable HTTP (127.0.0.1 only), and is driven by toolpact's MCP client, by raw
//! JSON-RPC lines, and by itself (`fetch` reading `serve`). Every process a test starts is
//! stopped by the test.

mod demo;
mod fetch;
mod http;
mod live;
mod stdio;
mod wire;
