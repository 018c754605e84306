//! Serving one client over a byte stream: standard input and output (the way MCP clients start
//! local servers), or any pair of async reader and writer (an in-memory pipe in tests).
//!
//! On stdio, standard output carries protocol messages only: this crate logs through
//! `tracing`, and a program serving over stdio must send its log output to standard error.
//!
//! A line that is not JSON gets a JSON-RPC parse error (`-32700`, id `null`), as JSON-RPC 2.0
//! asks. rmcp (like the other official SDKs) skips such lines silently, which leaves a client
//! waiting for an answer that never comes, so the lines pass through a filter here first:
//! JSON goes on to rmcp, anything else is answered, and rmcp's own output is forwarded whole
//! lines at a time so the two never interleave.

use crate::error::ServeError;
use crate::server::Server;
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use serde::de::IgnoredAny;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How long a stopping server waits for the session to wind down before it returns anyway.
const STOP_GRACE: Duration = Duration::from_secs(5);

impl Server {
    /// Serves one client over standard input and output until the client disconnects or
    /// `shutdown` resolves (see [`crate::shutdown_signal`]).
    pub async fn serve_stdio(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ServeError> {
        self.serve_io(rmcp::transport::stdio_pipes(), shutdown)
            .await
    }

    /// Serves one client over a reader and a writer (newline-delimited JSON-RPC, as on stdio)
    /// until the client disconnects or `shutdown` resolves.
    pub async fn serve_io<R, W>(
        self,
        (read, write): (R, W),
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ServeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let handler = self.into_handler();
        let stop = CancellationToken::new();
        let (rmcp_read, inbound, rmcp_write, outbound) = answer_parse_errors(read, write);
        let serving = async {
            let running = match handler
                .serve_with_ct((rmcp_read, rmcp_write), stop.clone())
                .await
            {
                Ok(running) => running,
                // A client that leaves before it initializes ends the session, not the server.
                Err(ServerInitializeError::ConnectionClosed(why)) => {
                    tracing::info!(%why, "the client closed the connection before initializing");
                    return Ok(());
                }
                Err(ServerInitializeError::Cancelled) => return Ok(()),
                Err(e) => return Err(ServeError::Session(e.to_string())),
            };
            running
                .waiting()
                .await
                .map(drop)
                .map_err(|e| ServeError::Session(e.to_string()))
        };
        tokio::pin!(serving);
        let result = tokio::select! {
            result = &mut serving => result,
            () = shutdown => {
                stop.cancel();
                tokio::time::timeout(STOP_GRACE, serving).await.unwrap_or(Ok(()))
            }
        };
        // rmcp has dropped its writer: let the last answers out, then stop reading.
        let _ = tokio::time::timeout(STOP_GRACE, outbound).await;
        inbound.abort();
        result
    }
}

/// The parse error sent for a line that is not JSON.
const PARSE_ERROR: &str = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}"#;

/// How much the pipes between the filter and rmcp buffer.
const PIPE_BUFFER: usize = 64 * 1024;

/// Puts the filter between `read`/`write` and rmcp: returns the reader and writer rmcp gets,
/// and the two tasks that move lines (inbound: client → rmcp or a parse error; outbound: rmcp
/// → client).
fn answer_parse_errors<R, W>(
    read: R,
    write: W,
) -> (DuplexStream, JoinHandle<()>, DuplexStream, JoinHandle<()>)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (rmcp_read, mut to_rmcp) = tokio::io::duplex(PIPE_BUFFER);
    let (rmcp_write, from_rmcp) = tokio::io::duplex(PIPE_BUFFER);
    let out = Arc::new(Mutex::new(write));

    let client_out = Arc::clone(&out);
    let inbound = tokio::spawn(async move {
        let mut lines = BufReader::new(read);
        let mut line = Vec::new();
        while next_line(&mut lines, &mut line).await {
            let text = line.trim_ascii();
            if text.is_empty() || serde_json::from_slice::<IgnoredAny>(text).is_ok() {
                if to_rmcp.write_all(&line).await.is_err() {
                    break;
                }
                continue;
            }
            tracing::warn!("answered a message that is not JSON with a parse error (-32700)");
            let mut out = client_out.lock().await;
            if send_line(&mut *out, PARSE_ERROR.as_bytes()).await.is_err() {
                break;
            }
        }
        // End of input: rmcp sees the client leave.
        let _ = to_rmcp.shutdown().await;
    });

    let outbound = tokio::spawn(async move {
        let mut lines = BufReader::new(from_rmcp);
        let mut line = Vec::new();
        while next_line(&mut lines, &mut line).await {
            let mut out = out.lock().await;
            if send_line(&mut *out, line.trim_ascii_end()).await.is_err() {
                break;
            }
        }
    });
    (rmcp_read, inbound, rmcp_write, outbound)
}

/// Reads the next line, with its `\n`, into `line`; `false` at the end of the input or when
/// it cannot be read.
async fn next_line<R: AsyncBufRead + Unpin>(reader: &mut R, line: &mut Vec<u8>) -> bool {
    line.clear();
    matches!(reader.read_until(b'\n', line).await, Ok(n) if n > 0)
}

/// Writes one line and flushes it, so that a client reading line by line sees it at once.
async fn send_line<W: AsyncWrite + Unpin>(out: &mut W, line: &[u8]) -> std::io::Result<()> {
    out.write_all(line).await?;
    out.write_all(b"\n").await?;
    out.flush().await
}
