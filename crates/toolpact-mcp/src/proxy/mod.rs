//! `toolpact proxy`: any MCP server behind a gate that pins, lints, validates and scans.
//!
//! The proxy is an MCP server to its client and an MCP client to the upstream server (a child
//! process, or a Streamable HTTP URL). Everything the two say to each other passes through
//! byte for byte — resources, prompts, completions, logging, progress, sampling, elicitation,
//! cancellation — except what the gates read:
//!
//! - the tool list (`policy`, `gate`): compared with a lock file, linted, held against allow
//!   and deny lists, renamed and re-described; what does not pass is withheld, with the
//!   reason in the audit log and, when the client asked for logging, in a log notification;
//! - each `tools/call` (`calls`): validated against the tool's full input schema before it is
//!   forwarded; invalid arguments get an `isError` result listing toolpact's errors, an
//!   unknown or withheld tool a `-32602` error; calls have time limits;
//! - each result (`calls`): checked against the output schema, scanned for instructions to
//!   the model, held to a size budget;
//! - `notifications/tools/list_changed`: the list is read and checked again before the client
//!   hears of it.
//!
//! The modules, bottom to top: `policy` (the options), `audit` (the JSON-lines log), `wire`
//! (lines and envelopes), `gate` (the tool list), `calls` (calls and results), `upstream`
//! (reaching the server), `relay` (the message pumps), `http` (the relay
//! behind the crate's Streamable HTTP front).

mod audit;
mod calls;
mod gate;
mod http;
mod policy;
mod relay;
mod upstream;
mod wire;

pub use policy::{
    AuditTarget, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_RESULT_BYTES, OnChange, OnFinding, OnInjection, OnInvalidOutput, ProxyOptions,
};

use crate::child::ServerStderr;
use crate::client::Source;
use crate::error::{ClientError, ServeError};
use crate::http::{HttpOptions, HttpServer};
use audit::AuditLog;
use gate::Gate;
use relay::{Relay, Shared};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};

/// The settings of mimalloc under which a process that runs the proxy keeps its memory low, as
/// environment variables (mimalloc reads them once, when the process starts; the `toolpact`
/// command starts itself again with them for `toolpact proxy`).
///
/// With its defaults mimalloc commits the memory of each arena it reserves at once and gives
/// back what was freed a second later, which suits a command that checks a large catalog and
/// exits. A proxy stays up and serves bursts: with the defaults it held 94 MiB idle and about
/// 130 MiB after 1,000 calls in flight over HTTP, against 45 and 79 MiB with these settings
/// (docs/benchmarks.md, "toolpact proxy").
pub const MIMALLOC_SETTINGS: [(&str, &str); 2] = [
    // Commit arena memory as it is used, not all at once.
    ("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
    // Give freed pages back to the system at once rather than after a second.
    ("MIMALLOC_PURGE_DELAY", "0"),
];

/// Why the proxy cannot start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProxyError {
    /// The options do not make sense (a lock file that cannot be read, say).
    #[error("{0}")]
    Option(String),
    /// The audit log cannot be opened.
    #[error("cannot open the audit log {path}: {error}")]
    Audit {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The upstream server cannot be started or reached.
    #[error(transparent)]
    Upstream(#[from] ClientError),
    /// The async runtime cannot be created.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The HTTP front cannot be bound or served.
    #[error(transparent)]
    Serve(#[from] ServeError),
}

/// A proxy, ready to serve clients: its options checked, its lock read, its audit log open.
#[derive(Clone)]
pub struct Proxy {
    shared: Arc<Shared>,
    stderr: ServerStderr,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("options", &self.shared.options)
            .finish()
    }
}

impl Proxy {
    /// Checks the options, reads the lock file and opens the audit log.
    pub fn new(options: ProxyOptions) -> Result<Proxy, ProxyError> {
        if options.pin && options.lock.is_none() {
            return Err(ProxyError::Option(
                "pinning on first use needs the lock file to write".to_owned(),
            ));
        }
        for (name, value) in [
            ("the result budget", options.max_result_bytes),
            ("the message size limit", options.max_message_bytes),
            ("the limit of requests in flight", options.max_in_flight),
        ] {
            if value == 0 {
                return Err(ProxyError::Option(format!("{name} must be at least 1")));
            }
        }
        let gate = Gate::new(&options).map_err(ProxyError::Option)?;
        let audit = AuditLog::open(&options.audit, options.log_arguments).map_err(|error| {
            ProxyError::Audit {
                path: match &options.audit {
                    AuditTarget::File(path) => path.display().to_string(),
                    _ => "(standard error)".to_owned(),
                },
                error,
            }
        })?;
        Ok(Proxy {
            shared: Arc::new(Shared {
                options,
                gate,
                audit,
            }),
            stderr: ServerStderr::Capture,
        })
    }

    /// What happens to a child server's standard error: kept for error messages (the default),
    /// or passed through to this process's standard error.
    pub fn with_server_stderr(mut self, stderr: ServerStderr) -> Proxy {
        self.stderr = stderr;
        self
    }

    /// Serves one client over standard input and output, in front of `upstream`, until the
    /// client leaves or Ctrl-C, on a runtime with one thread of its own, for synchronous
    /// code (a command-line `main`). A proxy on stdio relays one session: one thread answers
    /// it sooner than a pool that hands each message from thread to thread (about half the
    /// latency the proxy adds, in `benches/proxy_load.rs`); the linter still runs on a
    /// thread of its own.
    pub fn run_stdio(&self, upstream: &Source) -> Result<(), ProxyError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ProxyError::Runtime)?;
        let served = runtime.block_on(self.serve_stdio(upstream, crate::shutdown_signal()));
        // A blocking read of standard input cannot be interrupted; it must not hold the exit.
        runtime.shutdown_timeout(std::time::Duration::from_millis(200));
        served
    }

    /// Serves one client over standard input and output, in front of `upstream`, until the
    /// client disconnects or `shutdown` resolves.
    pub async fn serve_stdio(
        &self,
        upstream: &Source,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ProxyError> {
        self.serve_io(rmcp::transport::stdio_pipes(), upstream, shutdown)
            .await
    }

    /// Serves one client over a reader and a writer (newline-delimited JSON-RPC, as on stdio)
    /// in front of `upstream`, until the client disconnects or `shutdown` resolves.
    pub async fn serve_io<R, W>(
        &self,
        client: (R, W),
        upstream: &Source,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ProxyError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let connected =
            upstream::connect(upstream, self.stderr, self.shared.options.max_message_bytes)?;
        let relay = Relay::new(
            Arc::clone(&self.shared),
            upstream.origin(),
            Box::new(client.1),
            connected.write,
            connected.child,
        );
        relay.run(client.0, connected.read, shutdown).await;
        Ok(())
    }

    /// Relays between a client and an upstream both given as a reader and a writer
    /// (newline-delimited JSON-RPC); `origin` names the upstream in messages. For an upstream
    /// this crate does not start itself, and for tests.
    pub async fn relay<R, W, UR, UW>(
        &self,
        client: (R, W),
        upstream: (UR, UW),
        origin: &str,
        shutdown: impl Future<Output = ()> + Send,
    ) where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
        UR: AsyncRead + Send + Unpin + 'static,
        UW: AsyncWrite + Send + Unpin + 'static,
    {
        let relay = Relay::new(
            Arc::clone(&self.shared),
            origin.to_owned(),
            Box::new(client.1),
            Box::new(upstream.1),
            None,
        );
        relay.run(client.0, upstream.0, shutdown).await;
    }

    /// Binds a Streamable HTTP front at [`crate::MCP_PATH`] with the same Origin, Host, bearer
    /// and body checks as [`crate::Server::bind_http`]; each client session starts its own
    /// connection to `upstream` with its first request. [`HttpServer::serve_until`] then
    /// serves it.
    pub async fn bind_http(
        &self,
        upstream: Source,
        options: HttpOptions,
    ) -> Result<HttpServer, ProxyError> {
        Ok(http::bind(Arc::clone(&self.shared), self.stderr, upstream, options).await?)
    }
}
