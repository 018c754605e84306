//! Why serving or reading a server failed. Each error says what was being done and with which
//! server, so a command can print it as it is.

use std::net::SocketAddr;
use std::time::Duration;

/// Why a server could not be built or stopped serving with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// A tool of the registry does not fit rmcp's wire model at all.
    #[error("tool {tool:?} cannot be served: {message}")]
    Tool {
        /// The tool's name.
        tool: String,
        /// What is wrong.
        message: String,
    },
    /// The address could not be bound. The operating system's error is part of the message
    /// (and not also a `source`, so that it is reported once).
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// An option of the HTTP server is unusable (an origin that is not `scheme://host[:port]`).
    #[error("{0}")]
    Option(String),
    /// The connection failed while serving.
    #[error("serving failed: {0}")]
    Io(std::io::Error),
    /// The MCP session could not start (the client sent no valid `initialize`).
    #[error("the MCP session could not start: {0}")]
    Session(String),
}

impl From<std::io::Error> for ServeError {
    fn from(error: std::io::Error) -> Self {
        ServeError::Io(error)
    }
}

/// Why reading a live server failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server command could not be started. The operating system's error is part of the
    /// message (and not also a `source`, so that it is reported once).
    #[error("cannot start {command}: {error}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        error: std::io::Error,
    },
    /// A source option is unusable (an empty command, a malformed URL or header).
    #[error("{0}")]
    Option(String),
    /// The server did not answer a step in time. The child process, if any, was stopped.
    #[error("{origin}: the server did not answer {step} within {}{stderr}", toolpact::human_duration(*.limit))]
    Timeout {
        /// The command or URL.
        origin: String,
        /// What was asked: `initialize`, `tools/list`, `tools/call`.
        step: String,
        /// The time limit.
        limit: Duration,
        /// The tail of the server's standard error, as a suffix for the message.
        stderr: String,
    },
    /// The connection failed or closed during a step.
    #[error("{origin}: {step} failed: {message}{stderr}")]
    Connection {
        /// The command or URL.
        origin: String,
        /// What was asked.
        step: String,
        /// What happened.
        message: String,
        /// The tail of the server's standard error, as a suffix for the message.
        stderr: String,
    },
    /// The server answered with a JSON-RPC error.
    #[error("{origin}: the server answered {step} with error {code}: {message}")]
    Protocol {
        /// The command or URL.
        origin: String,
        /// What was asked.
        step: String,
        /// The JSON-RPC error code (`-32602` for an unknown tool).
        code: i32,
        /// The server's message.
        message: String,
    },
    /// `tools/list` kept returning a `nextCursor`.
    #[error(
        "{origin}: tools/list still had a nextCursor after {pages} pages; the server may page forever (raise the page limit if it really has that many tools)"
    )]
    TooManyPages {
        /// The command or URL.
        origin: String,
        /// The page limit.
        pages: usize,
    },
    /// The tools the server listed cannot be read as tool definitions.
    #[error(transparent)]
    Import(#[from] toolpact::ImportError),
}

impl ClientError {
    /// The JSON-RPC error code, when the server answered with one.
    pub fn code(&self) -> Option<i32> {
        match self {
            ClientError::Protocol { code, .. } => Some(*code),
            _ => None,
        }
    }
}
