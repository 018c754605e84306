//! Serving one client over a byte stream: standard input and output (the way MCP clients start
//! local servers), or any pair of async reader and writer (an in-memory pipe in tests).
//!
//! On stdio, standard output carries protocol messages only: this crate logs through
//! `tracing`, and a program serving over stdio must send its log output to standard error.
//!
//! A line that is not JSON gets a JSON-RPC parse error (`-32700`, id `null`), as JSON-RPC 2.0
//! asks (rmcp, like the other official SDKs, skips such lines silently, which leaves a client
//! waiting for an answer that never comes); the framing is [`crate::jsonl`]'s, which parses
//! each line once and writes each reply in one `write`.

use crate::error::ServeError;
use crate::jsonl::{LineTransport, Stray};
use crate::server::Server;
use rmcp::service::ServerInitializeError;
use rmcp::{RoleServer, ServiceExt};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
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
        let transport = LineTransport::<RoleServer, R, W>::new(read, write, Stray::Answer);
        let serving = async {
            let running = match handler.serve_with_ct(transport, stop.clone()).await {
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
        tokio::select! {
            // The shutdown first: its first poll installs the signal handlers, before the
            // session is first polled and can answer (a client may interrupt the server as
            // soon as it is answered).
            biased;
            () = shutdown => {
                stop.cancel();
                tokio::time::timeout(STOP_GRACE, serving).await.unwrap_or(Ok(()))
            }
            result = &mut serving => result,
        }
    }
}
