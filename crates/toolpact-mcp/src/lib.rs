//! toolpact over MCP: serve a [`toolpact::Registry`] as an MCP server, and read the tools of
//! live MCP servers.
//!
//! - [`Server`] turns a registry into an MCP server over stdio ([`Server::serve_stdio`]) or
//!   Streamable HTTP ([`Server::bind_http`], at [`MCP_PATH`], Origin-checked, optionally
//!   behind a bearer token). Every `tools/call` goes through [`toolpact::dispatch()`],
//!   so arguments are validated against the tool's full JSON Schema before a handler runs;
//!   invalid arguments come back as a result with `isError: true` the model can act on, and an
//!   unknown tool as JSON-RPC error `-32602`.
//! - [`fetch_tools`] and [`fetch_catalog`] start a stdio server ([`Source::Command`]) or reach a
//!   Streamable HTTP one ([`Source::Url`]) and list its tools; [`Connection`] keeps the session
//!   open to call tools.
//! - [`block_on`] and [`shutdown_signal`] let synchronous code (a command-line `main`) use all
//!   of this without an async runtime of its own.
//!
//! The wire protocol is the official Rust SDK's (`rmcp`); its types stay inside this crate,
//! and the public API speaks toolpact's types.

#![deny(missing_docs)]

mod child;
mod client;
mod context;
mod convert;
mod error;
mod http;
mod jsonl;
mod prompts;
mod protocol;
mod proxy;
mod resources;
mod runtime;
mod server;
mod stdio;

pub use child::ServerStderr;
pub use client::{
    ClientOptions, Connection, DEFAULT_MAX_PAGES, DEFAULT_TIMEOUT, Fetched, ServerInfo, Source,
    fetch_catalog, fetch_tools,
};
pub use error::{ClientError, ServeError};
pub use http::{
    DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_PENDING_CONNECTIONS,
    DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT, HttpOptions, HttpServer, MCP_PATH,
};
pub use prompts::{Prompt, PromptArgument, PromptArguments, PromptMessage};
pub use protocol::PROTOCOL_VERSIONS;
pub use proxy::{
    AuditTarget, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_RESULT_BYTES, MIMALLOC_SETTINGS, OnChange, OnFinding, OnInjection, OnInvalidOutput,
    Proxy, ProxyError, ProxyOptions,
};
pub use resources::{Resource, ResourceTemplate, Resources, UriVariables};
pub use runtime::{block_on, shutdown_signal};
pub use server::{CallInfo, DEFAULT_PAGE_SIZE, Server};
