//! Reaching the upstream server: a child process whose standard input and output the relay
//! reads and writes as they are, or a Streamable HTTP endpoint bridged to the same newline-
//! delimited JSON through rmcp's HTTP client transport.

mod streamable;

use crate::child::{self, Child, ServerStderr};
use crate::client::Source;
use crate::error::ClientError;
use tokio::io::{AsyncRead, AsyncWrite};

/// An upstream the relay can read and write.
pub(crate) struct Connected {
    /// What the upstream says.
    pub(crate) read: Box<dyn AsyncRead + Send + Unpin>,
    /// What the upstream is told.
    pub(crate) write: Box<dyn AsyncWrite + Send + Unpin>,
    /// The child process, for a command.
    pub(crate) child: Option<Child>,
}

/// Starts or reaches the upstream.
pub(crate) fn connect(
    source: &Source,
    stderr: ServerStderr,
    max_message_bytes: usize,
) -> Result<Connected, ClientError> {
    match source {
        Source::Command { program, args } => {
            let (stdout, stdin, child) =
                child::spawn_pipes(program, args, &source.origin(), stderr)?;
            Ok(Connected {
                read: Box::new(stdout),
                write: Box::new(stdin),
                child: Some(child),
            })
        }
        Source::Url {
            url,
            headers,
            bearer_token,
        } => {
            let (read, write) =
                streamable::open(url, headers, bearer_token.as_deref(), max_message_bytes)?;
            Ok(Connected {
                read: Box::new(read),
                write: Box::new(write),
                child: None,
            })
        }
    }
}
