//! Serving over MCP Streamable HTTP at `/mcp`, with the checks the specification asks of a
//! local server: bind 127.0.0.1 by default, validate `Origin` on every request (403 when it is
//! present and not allowed: DNS-rebinding protection) and `Host` (403, saying which name to
//! allow), and optionally require a bearer token (401). Allowed browser origins get CORS
//! answers (preflight, `Access-Control-Allow-Origin`, `Mcp-Session-Id` exposed). Request bodies
//! are limited (413), and a body that is not JSON gets a JSON-RPC `-32700` parse error (400).
//!
//! Connections are served by hyper directly: `TCP_NODELAY` on every accepted connection (without
//! it, Nagle's algorithm holds the end of each reply until the client's delayed ACK, about
//! 40 ms a call), a time limit on reading the headers of every request of a connection (from
//! its first byte; an idle kept-alive connection is not timed), and a bound on the connections
//! whose first request has not arrived whole. The head of an event stream and its first events
//! wait up to 10 ms for the stream's end, so that a call answered within that time goes out in
//! one write (`answer`).
//!
//! The session itself (SSE streams, `Mcp-Session-Id`, `MCP-Protocol-Version`, stateless
//! 2026-07-28 requests) is rmcp's `StreamableHttpService`; the checks here run in front of it.
//! Sessions are rmcp's, kept alive as long as the client holds a stream open and closed after
//! [`HttpOptions::session_idle_timeout`] without one; beyond [`HttpOptions::max_sessions`] a new
//! session is refused with 503 and `Retry-After`. `DELETE` answers 204, or 404 for a session
//! that does not exist; a second `initialize` on a live session is refused, and `ping` is
//! answered in every protocol version. With [`HttpOptions::stateless`] there are no sessions at
//! all, so any instance behind a load balancer can answer any request.
//!
//! References: <https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning>.

mod answer;

use crate::context::RequestStream;
use crate::error::ServeError;
use crate::server::Server;
use answer::Answer;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use futures::future::{Either, ready};
use futures::{FutureExt, Stream, StreamExt};
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, CustomRequest, CustomResult, ErrorData, GetExtensions,
    JsonRpcError, JsonRpcRequest, MetaObject, ServerJsonRpcMessage, ServerRequest, ServerResult,
};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// The request body limit unless [`HttpOptions::max_body_bytes`] says otherwise: 4 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// How long a session lives without a request and without an open stream, unless
/// [`HttpOptions::session_idle_timeout`] says otherwise: 30 minutes.
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// How many sessions may be open at once unless [`HttpOptions::max_sessions`] says otherwise.
pub const DEFAULT_MAX_SESSIONS: usize = 1024;

/// How long a client may take to send a request's headers unless
/// [`HttpOptions::header_read_timeout`] says otherwise: 10 seconds.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How many accepted connections may be waiting for their first request at once unless
/// [`HttpOptions::max_pending_connections`] says otherwise.
pub const DEFAULT_MAX_PENDING_CONNECTIONS: usize = 256;

/// How long a stopping server waits for open requests before it returns anyway.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// The `Retry-After` of a refused session, in seconds.
const RETRY_AFTER_SECONDS: u64 = 10;

/// Bodies up to this size are looked at for `initialize` and `ping` before the session gets
/// them; both are far smaller.
const PEEK_LIMIT: usize = 64 * 1024;

/// How to serve over Streamable HTTP.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen; `127.0.0.1:8000` by default. Port 0 picks a free port
    /// ([`HttpServer::local_addr`] says which).
    pub addr: SocketAddr,
    /// Browser origins allowed besides the server's own (`http://localhost:PORT`,
    /// `http://127.0.0.1:PORT`, `http://[::1]:PORT`), as `scheme://host[:port]`; `:*` allows
    /// any port, and `null` the opaque origin. Requests without `Origin` (non-browser clients)
    /// are not affected. Allowed origins get CORS answers.
    pub allowed_origins: Vec<String>,
    /// `Host` names (or `host:port`) allowed besides `localhost`, `127.0.0.1`, `::1` and the
    /// bound address; needed when clients reach the server under another name, and for a
    /// server bound to `0.0.0.0` or `::` reached under the machine's name or address.
    pub allowed_hosts: Vec<String>,
    /// The token every request must carry as `Authorization: Bearer <token>`; none by default.
    /// Printable ASCII: a token with whitespace at its start or end, a control character or a
    /// non-ASCII character could never match and is refused at start.
    pub bearer_token: Option<String>,
    /// The largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// How long a session lives with no request and no open stream. A session whose client
    /// holds a stream open (the `GET` stream most clients keep) never expires.
    pub session_idle_timeout: Duration,
    /// How many sessions may be open at once; beyond, `initialize` gets 503 with
    /// `Retry-After`.
    pub max_sessions: usize,
    /// How long a client may take to send the headers of a request, from the connection's start
    /// for the first request and from the request's first byte for the next ones on a kept-alive
    /// connection; the connection is closed after that.
    pub header_read_timeout: Duration,
    /// How many accepted connections may be waiting for their first request at once; further
    /// connections wait to be accepted until one of them sends its request or times out.
    pub max_pending_connections: usize,
    /// Serve without sessions: every request is answered on its own (no `Mcp-Session-Id`, no
    /// `GET` stream, no `DELETE`), so that any instance can answer any request.
    pub stateless: bool,
    /// Answer a request whose reply is a single message with `Content-Type: application/json`
    /// instead of an SSE stream, for requests served without a session ([`Self::stateless`],
    /// or the 2026-07-28 protocol).
    pub json_response: bool,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8000),
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            bearer_token: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            max_sessions: DEFAULT_MAX_SESSIONS,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            max_pending_connections: DEFAULT_MAX_PENDING_CONNECTIONS,
            stateless: false,
            json_response: false,
        }
    }
}

impl HttpOptions {
    /// Checks the options without binding or creating anything, so that a program can refuse
    /// them before it does anything else. [`Server::bind_http`] checks them too.
    pub fn validate(&self) -> Result<(), ServeError> {
        self.parsed_origins()?;
        if let Some(token) = &self.bearer_token {
            bearer_token_problem(token).map_or(Ok(()), |p| Err(ServeError::Option(p)))?;
        }
        for (name, value) in [
            ("the body limit", self.max_body_bytes),
            ("the session limit", self.max_sessions),
            (
                "the limit of pending connections",
                self.max_pending_connections,
            ),
        ] {
            if value == 0 {
                return Err(ServeError::Option(format!("{name} must be at least 1")));
            }
        }
        for (name, value) in [
            ("the session idle timeout", self.session_idle_timeout),
            ("the header read timeout", self.header_read_timeout),
        ] {
            if value.is_zero() {
                return Err(ServeError::Option(format!("{name} must be longer than 0")));
            }
        }
        Ok(())
    }

    fn parsed_origins(&self) -> Result<Vec<AllowedOrigin>, ServeError> {
        self.allowed_origins
            .iter()
            .map(|origin| {
                AllowedOrigin::parse(origin).ok_or_else(|| {
                    ServeError::Option(format!(
                        "allowed origin {origin:?} is not an origin; write scheme://host[:port], such as https://app.example.com or http://localhost:5173"
                    ))
                })
            })
            .collect()
    }
}

/// What is wrong with a bearer token, if anything.
fn bearer_token_problem(token: &str) -> Option<String> {
    if token.is_empty() {
        return Some("the bearer token is empty".to_owned());
    }
    if token.trim() != token {
        return Some(format!(
            "the bearer token has whitespace at its start or end ({} characters in all); HTTP drops it from the header, so no request could ever match: remove it",
            token.chars().count()
        ));
    }
    if !token.bytes().all(|b| b == b' ' || b.is_ascii_graphic()) {
        return Some(
            "the bearer token has a character a header cannot carry as is (a control character or a non-ASCII character); use printable ASCII only".to_owned(),
        );
    }
    None
}

/// A bound Streamable HTTP server, ready to serve.
#[derive(Debug)]
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    router: Router,
    local_addr: SocketAddr,
    stop: CancellationToken,
    sessions: Arc<TrackedSessions>,
    session_idle_timeout: Duration,
    header_read_timeout: Duration,
    max_pending_connections: usize,
}

impl HttpServer {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The MCP endpoint's URL, `http://ADDR/mcp`. For a server bound to every interface
    /// (`0.0.0.0` or `::`), the loopback address: the one address it answers to on this machine
    /// unless other hosts are allowed.
    pub fn url(&self) -> String {
        let mut addr = self.local_addr;
        if addr.ip().is_unspecified() {
            addr.set_ip(match addr.ip() {
                IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
                IpAddr::V6(_) => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
            });
        }
        format!("http://{addr}{MCP_PATH}")
    }

    /// Serves until `shutdown` resolves; then open sessions and streams are closed, requests in
    /// flight get a few seconds to finish, and the function returns.
    pub async fn serve_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let HttpServer {
            listener,
            router,
            stop,
            sessions,
            session_idle_timeout,
            header_read_timeout,
            max_pending_connections,
            ..
        } = self;
        tokio::spawn(close_idle_sessions(
            Arc::clone(&sessions),
            session_idle_timeout,
            stop.clone(),
        ));
        // hyper's own header timeout arms a new timer for every request, which costs about a
        // tenth of the throughput. Here each connection has one timer, which wakes once per
        // timeout at most and reads the connection's `HeadClock`: the clock costs a request
        // two atomic stores and a reading of the monotonic clock.
        let http1 = hyper::server::conn::http1::Builder::new();
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let pending = Arc::new(Semaphore::new(max_pending_connections));
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                permit = Arc::clone(&pending).acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_) => break,
                },
                () = &mut shutdown => break,
            };
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        // Out of file descriptors, say: wait a little rather than spin.
                        tracing::warn!("cannot accept a connection: {e}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            if let Err(e) = stream.set_nodelay(true) {
                tracing::debug!("cannot set TCP_NODELAY: {e}");
            }
            let clock = Arc::new(HeadClock::new(permit));
            let router = router.clone();
            let answering = Arc::clone(&clock);
            let service =
                hyper::service::service_fn(move |request: http::Request<_>| {
                    let answer = answering.head_read();
                    let mut router = router.clone();
                    // Called here rather than in an `async` block that would hold the request and
                    // the router beside the router's future (hyper keeps it for each connection).
                    answer::settled(
                        tower_service::Service::call(&mut router, request.map(Body::new)).map(
                            move |response| {
                                response.map(|response| {
                                    let event_stream =
                                        response.headers().get(header::CONTENT_TYPE).is_some_and(
                                            |v| v.as_bytes().starts_with(b"text/event-stream"),
                                        );
                                    response.map(|body| Answer::new(body, event_stream, answer))
                                })
                            },
                        ),
                    )
                });
            let io = Watched {
                stream,
                clock: Arc::clone(&clock),
            };
            // Pinned on the heap where it is made: pinned in the task, the connection (824 bytes)
            // would be held twice there, as what the task took and as what it pinned.
            let mut connection = Box::pin(
                graceful.watch(http1.serve_connection(hyper_util::rt::TokioIo::new(io), service)),
            );
            tokio::spawn(async move {
                let mut wake = tokio::time::Instant::now() + header_read_timeout;
                loop {
                    tokio::select! {
                        ended = &mut connection => {
                            if let Err(e) = ended {
                                tracing::debug!("connection ended: {e}");
                            }
                            return;
                        }
                        () = tokio::time::sleep_until(wake) => {
                            match clock.head_since() {
                                Some(since) if since.elapsed() >= header_read_timeout => {
                                    tracing::debug!("closed a connection whose request headers did not arrive in time");
                                    return;
                                }
                                Some(since) => {
                                    wake = tokio::time::Instant::from_std(since + header_read_timeout);
                                }
                                None => wake = tokio::time::Instant::now() + header_read_timeout,
                            }
                        }
                    }
                }
            });
        }
        tracing::info!("shutting down");
        stop.cancel();
        drop(listener);
        tokio::select! {
            () = graceful.shutdown() => {}
            () = tokio::time::sleep(STOP_GRACE) => {}
        }
        Ok(())
    }
}

/// Whether the headers of a request are being read on one connection, and since when: read by
/// the connection's timer, which closes the connection once they have taken longer than the
/// header-read timeout. A head is being read from the connection's start until its first
/// request arrives, and from the first byte that arrives while no request is being answered
/// until that request's headers are read whole.
struct HeadClock {
    start: Instant,
    /// Milliseconds from `start` to the first byte of the head being read, plus one; 0 while
    /// no head is being read.
    head_since: AtomicU64,
    /// Requests whose answer is not yet written whole: bytes arriving meanwhile (a pipelined
    /// request, the end of a body) start no head.
    answering: AtomicUsize,
    /// The place among the connections still waiting for their first request, given back when
    /// it arrives.
    pending: Mutex<Option<OwnedSemaphorePermit>>,
    first_arrived: AtomicBool,
}

impl HeadClock {
    fn new(pending: OwnedSemaphorePermit) -> HeadClock {
        HeadClock {
            start: Instant::now(),
            head_since: AtomicU64::new(1),
            answering: AtomicUsize::new(0),
            pending: Mutex::new(Some(pending)),
            first_arrived: AtomicBool::new(false),
        }
    }

    /// Bytes arrived: they start a head unless one is being read or a request answered.
    fn bytes_arrived(&self) {
        if self.head_since.load(Ordering::Relaxed) == 0
            && self.answering.load(Ordering::Relaxed) == 0
        {
            let since = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX - 1);
            self.head_since.store(since + 1, Ordering::Relaxed);
        }
    }

    /// A request's headers are read whole; it is being answered until the returned guard is
    /// dropped with the answer's body.
    fn head_read(self: &Arc<Self>) -> Answering {
        self.answering.fetch_add(1, Ordering::Relaxed);
        self.head_since.store(0, Ordering::Relaxed);
        if !self.first_arrived.load(Ordering::Relaxed) {
            self.first_arrived.store(true, Ordering::Relaxed);
            if let Ok(mut pending) = self.pending.lock() {
                pending.take();
            }
        }
        Answering(Arc::clone(self))
    }

    /// When the head being read started, if one is.
    fn head_since(&self) -> Option<Instant> {
        match self.head_since.load(Ordering::Relaxed) {
            0 => None,
            millis => Some(self.start + Duration::from_millis(millis - 1)),
        }
    }
}

/// A request being answered; dropped with its answer's body.
struct Answering(Arc<HeadClock>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.answering.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A connection's socket, which tells its [`HeadClock`] when bytes arrive.
struct Watched {
    stream: tokio::net::TcpStream,
    clock: Arc<HeadClock>,
}

impl tokio::io::AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.clock.bytes_arrived();
        }
        read
    }
}

impl tokio::io::AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

impl Server {
    /// Binds the Streamable HTTP endpoint; [`HttpServer::serve_until`] then serves it.
    pub async fn bind_http(self, options: HttpOptions) -> Result<HttpServer, ServeError> {
        bind_service(
            move || {
                let handler = self.into_handler();
                move || Ok(handler.clone())
            },
            options,
        )
        .await
    }
}

/// Binds the Streamable HTTP endpoint for the MCP service the factory makes (one per
/// session, or per request when stateless), behind the checks of this module. The factory
/// itself is made once the address is bound, so that nothing is set up for an address that
/// cannot be had.
pub(crate) async fn bind_service<S, F>(
    make_factory: impl FnOnce() -> F,
    options: HttpOptions,
) -> Result<HttpServer, ServeError>
where
    S: rmcp::ServerHandler + Send + 'static,
    F: Fn() -> Result<S, std::io::Error> + Send + Sync + 'static,
{
    {
        options.validate()?;
        let mut allowed = options.parsed_origins()?;
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|error| ServeError::Bind {
                addr: options.addr,
                error,
            })?;
        let local_addr = listener.local_addr()?;
        let port = local_addr.port();
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            allowed.push(AllowedOrigin::Tuple {
                scheme: "http".to_owned(),
                host: host.to_owned(),
                port: Port::Exact(port),
            });
        }
        let mut hosts = vec![
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
            "::1".to_owned(),
        ];
        if !local_addr.ip().is_unspecified() && !local_addr.ip().is_loopback() {
            hosts.push(local_addr.ip().to_string());
        }
        hosts.extend(options.allowed_hosts.iter().cloned());

        let stop = CancellationToken::new();
        // The Origin is checked in front of the session (`check_request`) against the same
        // list, before anything else: rmcp's own check would only repeat it, and rmcp copies its
        // configuration, lists and all, with its service for every request.
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_legacy_session_mode(!options.stateless)
            .with_json_response(options.json_response)
            .with_cancellation_token(stop.child_token());
        let sessions = Arc::new(TrackedSessions::new());
        let service = StreamableHttpService::new(make_factory(), Arc::clone(&sessions), config);
        let guard = Guard {
            origins: allowed,
            token: options.bearer_token.clone(),
            max_body_bytes: options.max_body_bytes,
            sessions: Arc::clone(&sessions),
            max_sessions: options.max_sessions,
            stateless: options.stateless,
        };
        let router = Router::new().route_service(MCP_PATH, Checked(Arc::new((guard, service))));
        Ok(HttpServer {
            listener,
            router,
            local_addr,
            stop,
            sessions,
            session_idle_timeout: options.session_idle_timeout,
            header_read_timeout: options.header_read_timeout,
            max_pending_connections: options.max_pending_connections,
        })
    }
}

/// The `_meta` key under which a handler hands over the result to send as it is, in place of
/// the typed one that carries it: rmcp's model of a result leaves out the fields it does not
/// know (a tool's `execution`, the `tasks` capability of 2025-11-25), and the proxy passes on
/// what the upstream server said. Only `initialize` and `tools/list` results are read for it;
/// the key itself never reaches the client.
pub(crate) const RESULT_AS_IS: &str = "toolpact/result-as-is";

/// The parameters of a request to the client, as the upstream server wrote them, carried in
/// the extensions of the [`CustomRequest`] a handler sends through rmcp's peer: rmcp adds a
/// progress token to every request it sends, and its model of sampling and elicitation
/// requests rewrites fields (a temperature held as `f32`, an elicitation's default `mode`).
/// The request goes out with these parameters and nothing else; the extensions never
/// reach the client.
#[derive(Debug, Clone)]
pub(crate) struct RequestAsIs(pub(crate) Option<Value>);

/// A request to the client that goes out with `params`, an object, as they are (see
/// [`RequestAsIs`]).
pub(crate) fn request_as_is(
    method: &str,
    params: Option<serde_json::Map<String, Value>>,
) -> ServerRequest {
    let mut request = CustomRequest::new(method, None);
    request
        .extensions
        .insert(RequestAsIs(params.map(Value::Object)));
    ServerRequest::CustomRequest(request)
}

/// The message with a result handed over under [`RESULT_AS_IS`] replaced by that result, or
/// a request handed over as [`RequestAsIs`] stripped of what rmcp added to it. The protocol
/// version of an `initialize` result is the one rmcp negotiated.
fn send_as_is(message: Arc<ServerJsonRpcMessage>) -> Arc<ServerJsonRpcMessage> {
    let response = match &*message {
        ServerJsonRpcMessage::Response(response) => response,
        ServerJsonRpcMessage::Request(JsonRpcRequest {
            id,
            request: ServerRequest::CustomRequest(request),
            ..
        }) => {
            let Some(RequestAsIs(params)) = request.extensions.get::<RequestAsIs>() else {
                return message;
            };
            return Arc::new(ServerJsonRpcMessage::request(
                ServerRequest::CustomRequest(CustomRequest::new(
                    request.method.clone(),
                    params.clone(),
                )),
                id.clone(),
            ));
        }
        _ => return message,
    };
    let (meta, version) = match &response.result {
        ServerResult::InitializeResult(result) => {
            (result.meta.as_ref(), Some(&result.protocol_version))
        }
        ServerResult::ListToolsResult(result) => (result.meta.as_ref(), None),
        _ => return message,
    };
    let Some(Value::Object(mut result)) = meta.and_then(|m| m.0.get(RESULT_AS_IS)).cloned() else {
        return message;
    };
    if let Some(version) = version.and_then(|v| serde_json::to_value(v).ok()) {
        result.insert("protocolVersion".to_owned(), version);
    }
    Arc::new(ServerJsonRpcMessage::response(
        ServerResult::CustomResult(CustomResult(Value::Object(result))),
        response.id.clone(),
    ))
}

/// A `_meta` that hands `result` over to be sent as it is (see [`RESULT_AS_IS`]).
pub(crate) fn as_is_meta(result: Value) -> MetaObject {
    let mut meta = serde_json::Map::new();
    meta.insert(RESULT_AS_IS.to_owned(), result);
    MetaObject(meta)
}

/// Closes the sessions that have been idle too long, every quarter of the limit.
async fn close_idle_sessions(
    sessions: Arc<TrackedSessions>,
    limit: Duration,
    stop: CancellationToken,
) {
    let tick = (limit / 4).clamp(Duration::from_millis(20), Duration::from_secs(30));
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(tick) => {}
        }
        for id in sessions.activity.idle_for(limit) {
            tracing::info!(session = %id, "closing a session idle for {limit:?}");
            if let Err(e) = sessions.close_session(&id).await {
                tracing::warn!(session = %id, "cannot close an idle session: {e}");
            }
        }
    }
}

/// When each session was last used and how many streams it has open.
#[derive(Debug, Default)]
struct Activity {
    sessions: Mutex<HashMap<SessionId, Use>>,
}

#[derive(Debug)]
struct Use {
    open_streams: usize,
    last: Instant,
}

impl Activity {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<SessionId, Use>) -> T) -> T {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut sessions)
    }

    fn count(&self) -> usize {
        self.with(|s| s.len())
    }

    fn contains(&self, id: &str) -> bool {
        self.with(|s| s.contains_key(id))
    }

    fn touch(&self, id: &SessionId) {
        self.with(|s| {
            if let Some(u) = s.get_mut(id) {
                u.last = Instant::now();
            }
        });
    }

    /// Counts a stream as open until the returned guard is dropped.
    fn stream(self: &Arc<Self>, id: &SessionId) -> StreamGuard {
        self.with(|s| {
            if let Some(u) = s.get_mut(id) {
                u.open_streams += 1;
                u.last = Instant::now();
            }
        });
        StreamGuard {
            activity: Arc::clone(self),
            id: id.clone(),
        }
    }

    fn idle_for(&self, limit: Duration) -> Vec<SessionId> {
        self.with(|s| {
            s.iter()
                .filter(|(_, u)| u.open_streams == 0 && u.last.elapsed() >= limit)
                .map(|(id, _)| id.clone())
                .collect()
        })
    }
}

/// An open stream of a session; dropping it counts the stream closed.
struct StreamGuard {
    activity: Arc<Activity>,
    id: SessionId,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.activity.with(|s| {
            if let Some(u) = s.get_mut(&self.id) {
                u.open_streams = u.open_streams.saturating_sub(1);
                u.last = Instant::now();
            }
        });
    }
}

/// rmcp's in-memory sessions without their fixed 5-minute keep-alive (which closes a session
/// whose client is connected but quiet), with their use recorded for
/// [`close_idle_sessions`] and the session limit.
#[derive(Debug)]
struct TrackedSessions {
    inner: LocalSessionManager,
    activity: Arc<Activity>,
}

impl TrackedSessions {
    fn new() -> TrackedSessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = None;
        TrackedSessions {
            inner,
            activity: Arc::default(),
        }
    }

    fn tracked<S>(&self, id: &SessionId, stream: S) -> impl Stream<Item = S::Item> + use<S>
    where
        S: Stream,
    {
        let guard = self.activity.stream(id);
        stream.map(move |item| {
            let _open = &guard;
            item
        })
    }
}

impl SessionManager for TrackedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        self.activity.with(|s| {
            s.insert(
                id.clone(),
                Use {
                    open_streams: 0,
                    last: Instant::now(),
                },
            )
        });
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.activity.touch(id);
        self.inner
            .initialize_session(id, message)
            .await
            .map(|answer| send_as_is(Arc::new(answer)))
            .map(Arc::unwrap_or_clone)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.activity.with(|s| s.remove(id));
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // A call's notifications ride its own stream (see `RequestStream`); other requests send
        // none, and do without it.
        let call_stream = match &mut message {
            ClientJsonRpcMessage::Request(request)
                if matches!(request.request, ClientRequest::CallToolRequest(_)) =>
            {
                let stream = RequestStream::default();
                request.request.extensions_mut().insert(stream.clone());
                Some(stream)
            }
            _ => None,
        };
        let stream = self.inner.create_stream(id, message).await?;
        let stream = match call_stream {
            Some(notifications) => notifications_first(notifications, stream).left_stream(),
            None => stream.right_stream(),
        };
        Ok(self.tracked(id, as_is(stream)))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.activity.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.inner.create_standalone_stream(id).await?;
        Ok(self.tracked(id, as_is(stream)))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(self.tracked(id, as_is(stream)))
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(id).await
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

/// The stream with each message handed over as it is sent as such (see [`send_as_is`]).
fn as_is(
    stream: impl Stream<Item = ServerSseMessage> + Send + Sync + 'static,
) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static {
    stream.map(|mut event| {
        event.message = event.message.map(send_as_is);
        event
    })
}

/// The stream answering a call: the notifications its handler sends, each written as soon as
/// it is sent and before anything the session writes after it, then the session's messages
/// (requests to the client, the answer). The stream ends with the session's: notifications
/// sent after the answer have nothing left to be about.
fn notifications_first<S>(
    call: RequestStream,
    mut session: S,
) -> impl Stream<Item = ServerSseMessage>
where
    S: Stream<Item = ServerSseMessage> + Unpin,
{
    let call = ClosedOnDrop(call);
    let mut notifications = None;
    let mut open = true;
    futures::stream::poll_fn(move |cx| {
        if open && notifications.is_none() {
            notifications = call.0.poll_receiver(cx);
        }
        if open && let Some(receiver) = &mut notifications {
            match receiver.poll_next_unpin(cx) {
                Poll::Ready(Some(notification)) => {
                    return Poll::Ready(Some(ServerSseMessage::from_message(
                        ServerJsonRpcMessage::notification(notification),
                    )));
                }
                Poll::Ready(None) => open = false,
                Poll::Pending => {}
            }
        }
        session.poll_next_unpin(cx)
    })
}

/// A call's stream as the SSE stream holds it: dropping the SSE stream closes it.
struct ClosedOnDrop(RequestStream);

impl Drop for ClosedOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// What every request is checked against before it reaches the session.
struct Guard {
    origins: Vec<AllowedOrigin>,
    token: Option<String>,
    max_body_bytes: usize,
    sessions: Arc<TrackedSessions>,
    max_sessions: usize,
    stateless: bool,
}

/// rmcp's MCP service behind the checks of a [`Guard`]. A service of its own rather than axum's
/// `from_fn` middleware, which boxes the service behind it again for every request; and both
/// behind one `Arc`, since the router clones its service for every request and rmcp's copies
/// its whole configuration.
struct Checked<H>(Arc<(Guard, McpService<H>)>);

/// rmcp's MCP service with toolpact's sessions.
type McpService<H> = StreamableHttpService<H, TrackedSessions>;

impl<H> Clone for Checked<H> {
    fn clone(&self) -> Self {
        Checked(Arc::clone(&self.0))
    }
}

impl<H> tower_service::Service<Request> for Checked<H>
where
    H: rmcp::ServerHandler + Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = futures::future::BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    /// The checks that need no body are made here, before any future exists; what is left to
    /// wait for (the body, then the session) is kept small, since it is held for as long as
    /// the call runs, once for each call in flight.
    fn call(&mut self, request: Request) -> Self::Future {
        let (guard, service) = &*self.0;
        let origin = request.headers().get(header::ORIGIN).cloned();
        if let Some(origin) = &origin
            && let Some(response) = cross_origin(guard, origin, &request)
        {
            return Box::pin(ready(Ok(response)));
        }
        // One allocation a request: the ways on are the arms of `Either`s, not boxes.
        let answer = match admit(guard, request) {
            Admitted::Answer(response) => return Box::pin(ready(Ok(with_cors(response, origin)))),
            Admitted::Post(id, request) => Either::Left(post(Arc::clone(&self.0), id, request)),
            Admitted::Delete(request) => Either::Right(Either::Left(
                run(service.clone(), request).map(|response| {
                    // A session ended: 204 rather than rmcp's 202, which clients log as a failure.
                    if response.status() == StatusCode::ACCEPTED {
                        StatusCode::NO_CONTENT.into_response()
                    } else {
                        response
                    }
                }),
            )),
            Admitted::Other(request) => Either::Right(Either::Right(run(service.clone(), request))),
        };
        Box::pin(answer.map(move |response| Ok(with_cors(response, origin))))
    }
}

/// What becomes of a request once the checks that need no body are made.
enum Admitted {
    /// Refused or answered without the session.
    Answer(Response),
    /// A message for the session, with the session's id if the request named one.
    Post(Option<HeaderValue>, Request),
    /// The end of a session that exists (or of none, when the request named none).
    Delete(Request),
    /// Anything else (a GET for the session's stream): rmcp answers it.
    Other(Request),
}

/// The answer to a request from an origin that is not allowed (403), or to the CORS preflight
/// of one that is; `None` for any other request from an allowed origin.
fn cross_origin(guard: &Guard, origin: &HeaderValue, request: &Request) -> Option<Response> {
    let parsed = origin.to_str().ok().and_then(AllowedOrigin::parse);
    let allowed = parsed.is_some_and(|o| guard.origins.iter().any(|a| a.allows(&o)));
    if !allowed {
        tracing::warn!(
            ?origin,
            "refused a request from an origin that is not allowed"
        );
        return Some(plain(
            StatusCode::FORBIDDEN,
            "Forbidden: the Origin header is not an allowed origin",
        ));
    }
    (request.method() == Method::OPTIONS
        && request
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD))
    .then(|| preflight(origin.clone(), request.headers()))
}

/// The bearer token, the declared size of a body and the session a `DELETE` names: the cheap
/// refusals, made before any body is read.
fn admit(guard: &Guard, request: Request) -> Admitted {
    if let Some(token) = &guard.token {
        let presented = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim());
        if !presented.is_some_and(|p| same_secret(p.as_bytes(), token.as_bytes())) {
            let mut response = plain(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: send the server's token as `Authorization: Bearer <token>`",
            );
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            return Admitted::Answer(response);
        }
    }
    let request = detached(request);
    // A clone of the header shares its bytes: nothing is copied.
    let id = request.headers().get("mcp-session-id").cloned();
    match *request.method() {
        Method::POST => {
            let declared = request
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > guard.max_body_bytes as u64) {
                return Admitted::Answer(too_large(guard.max_body_bytes));
            }
            Admitted::Post(id, request)
        }
        Method::DELETE if !guard.stateless => {
            if let Some(id) = id.as_ref().and_then(|v| v.to_str().ok())
                && !guard.sessions.activity.contains(id)
            {
                return Admitted::Answer(plain(
                    StatusCode::NOT_FOUND,
                    "Not Found: there is no session with this Mcp-Session-Id (it ended, or never existed)",
                ));
            }
            Admitted::Delete(request)
        }
        _ => Admitted::Other(request),
    }
}

/// The CORS headers of an answer to a request from an allowed origin.
fn with_cors(mut response: Response, origin: Option<HeaderValue>) -> Response {
    if let Some(origin) = origin {
        let headers = response.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate"),
        );
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
    }
    response
}

/// The answer to a CORS preflight from an allowed origin.
fn preflight(origin: HeaderValue, headers: &HeaderMap) -> Response {
    let allow_headers = headers
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned()
        .unwrap_or_else(|| {
            HeaderValue::from_static(
                "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
            )
        });
    let mut response = StatusCode::NO_CONTENT.into_response();
    let out = response.headers_mut();
    out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    out.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, DELETE"),
    );
    out.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, allow_headers);
    out.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("7200"),
    );
    out.insert(
        header::VARY,
        HeaderValue::from_static(
            "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        ),
    );
    response
}

/// A request whose head owns its bytes.
///
/// hyper reads a connection into a buffer of 8 KiB and hands out the request's header values,
/// its URI and a body that came with them as views of that buffer. rmcp keeps the request's
/// head for as long as the call runs (its handlers can read the headers), and while a view is
/// alive hyper cannot reuse the buffer: to watch the connection for the client's close during
/// the call it reserves a second one. Copied, the head takes a few hundred bytes, and a call
/// in flight holds one buffer rather than two (8 KiB less for each; with 1,000 calls in flight
/// on as many connections, 8 MiB).
fn detached(request: Request) -> Request {
    let (mut parts, body) = request.into_parts();
    for value in parts.headers.values_mut() {
        if let Ok(mut copy) = HeaderValue::from_bytes(value.as_bytes()) {
            copy.set_sensitive(value.is_sensitive());
            *value = copy;
        }
    }
    if let Ok(uri) = parts.uri.to_string().parse() {
        parts.uri = uri;
    }
    Request::from_parts(parts, body)
}

/// Bodies up to this size are copied out of hyper's read buffer (see [`detached`]); a larger
/// one was read into a buffer of its own size, or of several.
const DETACHED_BODY: usize = 64 * 1024;

/// The parts of a JSON-RPC message looked at before the session gets it.
#[derive(Deserialize)]
struct Peek {
    id: Option<Value>,
    method: Option<String>,
}

/// Reads the body of a message, answers what is answered without the session, and passes the
/// rest to it.
async fn post<H>(
    checked: Arc<(Guard, McpService<H>)>,
    id: Option<HeaderValue>,
    request: Request,
) -> Response
where
    H: rmcp::ServerHandler + Send + 'static,
{
    let guard = &checked.0;
    let (parts, body) = request.into_parts();
    let bytes = match Limited::new(body, guard.max_body_bytes).collect().await {
        // A small body is a view of hyper's read buffer too (see `detached`).
        Ok(collected) => match collected.to_bytes() {
            bytes if bytes.len() <= DETACHED_BODY => Bytes::copy_from_slice(&bytes),
            bytes => bytes,
        },
        Err(e) if e.is::<LengthLimitError>() => return too_large(guard.max_body_bytes),
        Err(e) => {
            return plain(
                StatusCode::BAD_REQUEST,
                &format!("Bad Request: cannot read the body: {e}"),
            );
        }
    };
    let is_json = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
        });
    let id = id.as_ref().and_then(|v| v.to_str().ok());
    if is_json && let Some(response) = answer_before_session(guard, id, &bytes) {
        return response;
    }
    // The body goes on as the bytes it is, not boxed as a body again.
    let request = http::Request::from_parts(parts, Full::new(bytes.clone()));
    let response = run(checked.1.clone(), request).await;
    // rmcp answers a body it cannot read with 415 and a plain message: say what is wrong in
    // JSON-RPC instead. Only a failure pays for this second look at the body.
    if is_json && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return unreadable_body(&bytes);
    }
    response
}

/// The requests answered here rather than by the session: `ping` outside a session (rmcp
/// refuses it under 2026-07-28), a second `initialize` on a live session, and an `initialize`
/// beyond the session limit.
fn answer_before_session(guard: &Guard, session: Option<&str>, bytes: &Bytes) -> Option<Response> {
    if bytes.len() > PEEK_LIMIT
        || !(mentions(bytes, b"\"ping\"") || mentions(bytes, b"\"initialize\""))
    {
        return None;
    }
    let peek = serde_json::from_slice::<Peek>(bytes).ok()?;
    let id = peek.id.filter(|id| id.is_string() || id.is_number())?;
    match (peek.method.as_deref()?, session) {
        ("ping", None) => {
            let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
            Some(
                (
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    body.to_string(),
                )
                    .into_response(),
            )
        }
        ("initialize", Some(session))
            if !guard.stateless && guard.sessions.activity.contains(session) =>
        {
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {
                    "code": -32600,
                    "message": "Invalid Request: this session is initialized already; to start another one, send initialize without Mcp-Session-Id"
                }
            });
            Some(
                (
                    StatusCode::BAD_REQUEST,
                    [(header::CONTENT_TYPE, "application/json")],
                    body.to_string(),
                )
                    .into_response(),
            )
        }
        ("initialize", None)
            if !guard.stateless && guard.sessions.activity.count() >= guard.max_sessions =>
        {
            tracing::warn!(
                max = guard.max_sessions,
                "refused a new session: the session limit is reached"
            );
            let mut response = plain(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "Service Unavailable: the server has {} sessions open, its limit; try again later",
                    guard.max_sessions
                ),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
            Some(response)
        }
        _ => None,
    }
}

fn mentions(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The JSON-RPC error for a body the session could not read: `-32700` when it is not JSON,
/// `-32600` when it is JSON but no MCP message.
fn unreadable_body(bytes: &[u8]) -> Response {
    if let Err(e) = serde_json::from_slice::<IgnoredAny>(bytes) {
        return json_rpc_error(ErrorData::parse_error(
            format!("Parse error: the body is not JSON ({e})"),
            None,
        ));
    }
    let why = serde_json::from_slice::<ClientJsonRpcMessage>(bytes)
        .err()
        .map(|e| format!(" ({e})"))
        .unwrap_or_default();
    json_rpc_error(ErrorData::invalid_request(
        format!(
            "Invalid Request: the body is not a JSON-RPC request, notification or response MCP defines{why}"
        ),
        None,
    ))
}

/// Passes the request to the session; a refused `Host` is answered with what to do about it.
///
/// Not an `async fn`: rmcp's call owns what it needs, and the session's service (a copy of its
/// whole configuration) is not kept while the call runs.
fn run<H, B>(
    mut session: McpService<H>,
    request: http::Request<B>,
) -> impl Future<Output = Response> + Send + 'static
where
    H: rmcp::ServerHandler + Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Error: std::fmt::Display,
    B::Data: Send + 'static,
{
    let host = request.headers().get(header::HOST).cloned();
    tower_service::Service::call(&mut session, request).map(move |response| {
        let response = match response {
            Ok(response) => response.map(Body::new),
            Err(never) => match never {},
        };
        // The Origin was checked above, and rmcp checks only the Host: a 403 here is the Host.
        if response.status() == StatusCode::FORBIDDEN {
            return refused_host(host.as_ref());
        }
        response
    })
}

/// The answer to a request for a `Host` that is not allowed, with what to do about it.
fn refused_host(host: Option<&HeaderValue>) -> Response {
    let host = host
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let name = host
        .parse::<http::uri::Authority>()
        .map_or(host.clone(), |a| a.host().to_owned());
    tracing::warn!(host, "refused a request for a Host that is not allowed");
    plain(
        StatusCode::FORBIDDEN,
        &format!(
            "Forbidden: this server does not answer to the Host {host:?} (DNS-rebinding protection); a server reached under another name or address than localhost must allow it (allowed hosts; `toolpact serve --allow-host {name}`)"
        ),
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Port {
    Exact(u16),
    Any,
    /// A scheme with no default port, written without one.
    Unspecified,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum AllowedOrigin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        port: Port,
    },
}

impl AllowedOrigin {
    /// Reads `scheme://host[:port]`, `scheme://host:*` or `null` (RFC 6454 serialization).
    fn parse(text: &str) -> Option<AllowedOrigin> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("null") {
            return Some(AllowedOrigin::Null);
        }
        if let Some(base) = text.strip_suffix(":*") {
            let has_port = base.parse::<http::Uri>().ok()?.port_u16().is_some();
            return match AllowedOrigin::parse(base)? {
                AllowedOrigin::Tuple { scheme, host, .. } if !has_port => {
                    Some(AllowedOrigin::Tuple {
                        scheme,
                        host,
                        port: Port::Any,
                    })
                }
                _ => None,
            };
        }
        let uri: http::Uri = text.parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let authority = uri.authority()?;
        if authority.as_str().contains('@')
            || uri.query().is_some()
            || !matches!(uri.path(), "" | "/")
            || text.ends_with('/')
        {
            return None;
        }
        let default_port = match scheme.as_str() {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        };
        let port = match authority.port_u16().or(default_port) {
            Some(port) => Port::Exact(port),
            None => Port::Unspecified,
        };
        Some(AllowedOrigin::Tuple {
            scheme,
            host: authority.host().to_ascii_lowercase(),
            port,
        })
    }

    fn allows(&self, origin: &AllowedOrigin) -> bool {
        match (self, origin) {
            (AllowedOrigin::Null, AllowedOrigin::Null) => true,
            (
                AllowedOrigin::Tuple { scheme, host, port },
                AllowedOrigin::Tuple {
                    scheme: s,
                    host: h,
                    port: p,
                },
            ) => scheme == s && host == h && (*port == Port::Any || port == p),
            _ => false,
        }
    }
}

/// Compares two secrets in time that depends on their lengths only.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn plain(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message.to_owned(),
    )
        .into_response()
}

fn too_large(limit: usize) -> Response {
    plain(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("Payload Too Large: the request body exceeds {limit} bytes"),
    )
}

/// A JSON-RPC error without an id (the request's id could not be read), with status 400.
fn json_rpc_error(error: ErrorData) -> Response {
    let body = serde_json::to_string(&JsonRpcError::new(None, error)).unwrap_or_default();
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call in flight over HTTP keeps the future that reads its body and waits for the
    /// session, once for each call: it holds the request's head and little more (it held
    /// several copies of the request and of the session's configuration, 3.2 KB).
    #[test]
    fn a_call_in_flight_keeps_a_small_future() {
        use crate::server::Bare;
        fn future_size<A, F: Future>(_: &impl Fn(A) -> F) -> usize {
            std::mem::size_of::<F>()
        }
        let post = |(checked, request): (Arc<(Guard, McpService<Bare>)>, Request)| {
            post(checked, None, request)
        };
        assert!(future_size(&post) <= 1024, "{} bytes", future_size(&post));
    }

    #[test]
    fn a_detached_head_is_the_same_request_in_bytes_of_its_own() {
        // As hyper hands it over: values and URI are views of the connection's read buffer.
        let buffer = Bytes::from_static(b"/mcp?x=1 abc-123 Bearer secret");
        let within = |p: *const u8| buffer.as_ptr_range().contains(&p);
        let mut token = HeaderValue::from_maybe_shared(buffer.slice(17..)).unwrap();
        token.set_sensitive(true);
        let request = http::Request::builder()
            .method(Method::POST)
            .uri(http::Uri::from_maybe_shared(buffer.slice(..8)).unwrap())
            .header(
                "mcp-session-id",
                HeaderValue::from_maybe_shared(buffer.slice(9..16)).unwrap(),
            )
            .header(header::AUTHORIZATION, token)
            .body(Body::from("{}"))
            .unwrap();
        assert!(within(
            request.headers()["mcp-session-id"].as_bytes().as_ptr()
        ));
        let request = detached(request);
        assert_eq!(request.method(), Method::POST);
        assert_eq!(request.uri(), "/mcp?x=1");
        assert!(!within(request.uri().path().as_ptr()));
        let id = &request.headers()["mcp-session-id"];
        assert_eq!(id, "abc-123");
        assert!(!within(id.as_bytes().as_ptr()));
        let token = &request.headers()[header::AUTHORIZATION];
        assert_eq!(token, "Bearer secret");
        assert!(token.is_sensitive());
        assert!(!within(token.as_bytes().as_ptr()));
    }

    #[test]
    fn origins_match_scheme_host_and_port() {
        let allowed = AllowedOrigin::parse("https://app.example.com").unwrap();
        for (origin, ok) in [
            ("https://app.example.com", true),
            ("https://APP.example.com:443", true),
            ("https://app.example.com:8443", false),
            ("http://app.example.com", false),
            ("https://evil.example.com", false),
        ] {
            let parsed = AllowedOrigin::parse(origin).unwrap();
            assert_eq!(allowed.allows(&parsed), ok, "{origin}");
        }
        let any_port = AllowedOrigin::parse("http://localhost:*").unwrap();
        assert!(any_port.allows(&AllowedOrigin::parse("http://localhost:5173").unwrap()));
        let v6 = AllowedOrigin::parse("http://[::1]:3000").unwrap();
        assert!(v6.allows(&AllowedOrigin::parse("http://[::1]:3000").unwrap()));
        assert!(AllowedOrigin::Null.allows(&AllowedOrigin::parse("null").unwrap()));
        for bad in [
            "localhost",
            "https://a.example/path",
            "https://u@a.example",
            "http://localhost:80:*",
            "",
        ] {
            assert_eq!(AllowedOrigin::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"s3cret", b"s3cret"));
        assert!(!same_secret(b"s3cret", b"s3creT"));
        assert!(!same_secret(b"s3cret", b"s3cre"));
    }
}
