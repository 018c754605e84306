//! Reaching the upstream server: a child process whose standard input and output the relay
//! reads and writes as they are, or a Streamable HTTP endpoint bridged to the same newline-
//! delimited JSON through rmcp's HTTP client transport.

use crate::child::{self, Child, ServerStderr};
use crate::client::{Source, http_transport};
use crate::error::ClientError;
use crate::proxy::wire::{Frame, LineReader, error_response};
use rmcp::RoleClient;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::Transport;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

/// An upstream the relay can read and write.
pub(crate) struct Connected {
    /// What the upstream says.
    pub(crate) read: Box<dyn AsyncRead + Send + Unpin>,
    /// What the upstream is told.
    pub(crate) write: Box<dyn AsyncWrite + Send + Unpin>,
    /// The child process, for a command.
    pub(crate) child: Option<Child>,
}

/// How much the bridge to an HTTP upstream holds in each direction before it waits.
const BRIDGE_BUFFER: usize = 256 * 1024;

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
            let transport = http_transport(url, headers, bearer_token.as_deref())?;
            let (proxy_side, bridge_side) = tokio::io::duplex(BRIDGE_BUFFER);
            tokio::spawn(bridge(transport, bridge_side, max_message_bytes));
            let (read, write) = tokio::io::split(proxy_side);
            Ok(Connected {
                read: Box::new(read),
                write: Box::new(write),
                child: None,
            })
        }
    }
}

/// Carries messages between newline-delimited JSON on `side` and an rmcp client transport,
/// until either end closes.
async fn bridge<T>(mut transport: T, side: tokio::io::DuplexStream, max: usize)
where
    T: Transport<RoleClient> + Send,
{
    let (read, mut write) = tokio::io::split(side);
    let mut lines = LineReader::new(read, max);
    loop {
        tokio::select! {
            frame = lines.next() => match frame {
                Some(Frame::Line(line)) => {
                    let text = line.trim_ascii();
                    if text.is_empty() {
                        continue;
                    }
                    match serde_json::from_slice::<ClientJsonRpcMessage>(text) {
                        Ok(message) => {
                            let id = match &message {
                                ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
                                _ => None,
                            };
                            if let Err(e) = transport.send(message).await {
                                tracing::warn!("cannot send to the upstream server: {e}");
                                // The request gets an answer; the bridge goes on, and ends
                                // when the transport says it is closed.
                                if let Some(id) = id.and_then(|id| serde_json::to_value(id).ok()) {
                                    let line = error_response(
                                        &id.to_string(),
                                        -32603,
                                        &format!("cannot send the request to the upstream server: {e}"),
                                    );
                                    if write.write_all(&line).await.is_err() {
                                        break;
                                    }
                                }
                            }
                        }
                        Err(e) => tracing::warn!("a message for the upstream server is not one rmcp can send over HTTP, dropped: {e}"),
                    }
                }
                Some(Frame::Overlong { bytes, .. }) => {
                    tracing::warn!("dropped a message of {bytes} bytes for the upstream server");
                }
                None => break,
            },
            message = transport.receive() => match message {
                Some(message) => {
                    let Ok(mut line) = serde_json::to_vec(&message) else { continue };
                    line.push(b'\n');
                    if write.write_all(&line).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    let _ = transport.close().await;
    let _ = write.shutdown().await;
}
