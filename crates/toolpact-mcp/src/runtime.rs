//! Running this crate's futures from synchronous code (a command-line `main`), and the usual
//! shutdown signal, so callers need no async runtime of their own.

use std::time::Duration;

/// How long leftover background work (a standard-input reader blocked in `read`) may delay the
/// return of [`block_on`].
const SHUTDOWN_GRACE: Duration = Duration::from_millis(200);

/// Runs a future to completion on a new multi-threaded runtime, then shuts the runtime down
/// without waiting for work that cannot be interrupted (such as a blocking read of standard
/// input). Fails only when the runtime cannot be created.
pub fn block_on<F: Future>(future: F) -> std::io::Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let output = runtime.block_on(future);
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    Ok(output)
}

/// Resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM. If the signals cannot be watched, it never
/// resolves (the server then stops only when its connection ends).
pub async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
