//! Serving over MCP Streamable HTTP at `/mcp`, with the checks the specification asks of a
//! local server: bind 127.0.0.1 by default, validate `Origin` on every request (403 when it is
//! present and not allowed: DNS-rebinding protection), and optionally require a bearer token
//! (401). Request bodies are limited (413), and a body that is not JSON gets a JSON-RPC
//! `-32700` parse error (400) instead of reaching the session.
//!
//! The session itself (SSE streams, `Mcp-Session-Id`, `MCP-Protocol-Version`, stateless
//! 2026-07-28 requests) is rmcp's `StreamableHttpService`; the checks here run in front of it,
//! and rmcp's own `Host`/`Origin` validation is switched on with the same lists.
//!
//! References: <https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning>.

use crate::error::ServeError;
use crate::server::Server;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, Method, StatusCode, header};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use rmcp::model::{ClientJsonRpcMessage, ErrorData, JsonRpcError};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// The request body limit unless [`HttpOptions::max_body_bytes`] says otherwise: 4 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// How long a stopping server waits for open requests before it returns anyway.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// How to serve over Streamable HTTP.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen; `127.0.0.1:8000` by default. Port 0 picks a free port
    /// ([`HttpServer::local_addr`] says which).
    pub addr: SocketAddr,
    /// Browser origins allowed besides the server's own (`http://localhost:PORT`,
    /// `http://127.0.0.1:PORT`, `http://[::1]:PORT`), as `scheme://host[:port]`; `:*` allows
    /// any port, and `null` the opaque origin. Requests without `Origin` (non-browser clients)
    /// are not affected.
    pub allowed_origins: Vec<String>,
    /// `Host` names (or `host:port`) allowed besides `localhost`, `127.0.0.1`, `::1` and the
    /// bound address; needed when clients reach the server under another name.
    pub allowed_hosts: Vec<String>,
    /// The token every request must carry as `Authorization: Bearer <token>`; none by default.
    pub bearer_token: Option<String>,
    /// The largest request body accepted, in bytes.
    pub max_body_bytes: usize,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8000),
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            bearer_token: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}

/// A bound Streamable HTTP server, ready to serve.
#[derive(Debug)]
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    router: Router,
    local_addr: SocketAddr,
    stop: CancellationToken,
}

impl HttpServer {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The MCP endpoint's URL, `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.local_addr)
    }

    /// Serves until `shutdown` resolves; then open sessions and streams are closed, requests in
    /// flight get a few seconds to finish, and the function returns.
    pub async fn serve_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let stop = self.stop.clone();
        let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
        let serve = axum::serve(self.listener, self.router).with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down");
            stop.cancel();
            let _ = stopping.send(());
        });
        let grace = async {
            match stopped.await {
                Ok(()) => tokio::time::sleep(STOP_GRACE).await,
                Err(_) => std::future::pending().await,
            }
        };
        tokio::select! {
            result = serve => result.map_err(ServeError::Io),
            () = grace => Ok(()),
        }
    }
}

impl Server {
    /// Binds the Streamable HTTP endpoint; [`HttpServer::serve_until`] then serves it.
    pub async fn bind_http(self, options: HttpOptions) -> Result<HttpServer, ServeError> {
        let mut allowed = Vec::new();
        for origin in &options.allowed_origins {
            allowed.push(AllowedOrigin::parse(origin).ok_or_else(|| {
                ServeError::Option(format!(
                    "allowed origin {origin:?} is not an origin; write scheme://host[:port], such as https://app.example.com or http://localhost:5173"
                ))
            })?);
        }
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|source| ServeError::Bind {
                addr: options.addr,
                source,
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
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_allowed_origins(allowed.iter().map(AllowedOrigin::to_rmcp))
            .enforce_origin_validation()
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_cancellation_token(stop.child_token());
        let handler = self.into_handler();
        let service = StreamableHttpService::new(
            move || Ok(handler.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let guard = Arc::new(Guard {
            origins: allowed,
            token: options.bearer_token.clone(),
            max_body_bytes: options.max_body_bytes,
        });
        let router = Router::new()
            .route_service(MCP_PATH, service)
            .route_layer(middleware::from_fn_with_state(guard, check_request));
        Ok(HttpServer {
            listener,
            router,
            local_addr,
            stop,
        })
    }
}

/// What every request is checked against before it reaches the session.
struct Guard {
    origins: Vec<AllowedOrigin>,
    token: Option<String>,
    max_body_bytes: usize,
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

    /// The same origin in the form rmcp's allow-list reads (an explicit port, or `:*`).
    fn to_rmcp(&self) -> String {
        match self {
            AllowedOrigin::Null => "null".to_owned(),
            AllowedOrigin::Tuple { scheme, host, port } => match port {
                Port::Exact(port) => format!("{scheme}://{host}:{port}"),
                Port::Any => format!("{scheme}://{host}:*"),
                Port::Unspecified => format!("{scheme}://{host}"),
            },
        }
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

/// Origin, then bearer token, then body: the cheapest refusals first, and no body is read for
/// a request that is refused anyway.
async fn check_request(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let parsed = origin.to_str().ok().and_then(AllowedOrigin::parse);
        let allowed = parsed.is_some_and(|o| guard.origins.iter().any(|a| a.allows(&o)));
        if !allowed {
            tracing::warn!(
                ?origin,
                "refused a request from an origin that is not allowed"
            );
            return plain(
                StatusCode::FORBIDDEN,
                "Forbidden: the Origin header is not an allowed origin",
            );
        }
    }
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
            return response;
        }
    }
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > guard.max_body_bytes as u64) {
        return too_large(guard.max_body_bytes);
    }
    let bytes = match Limited::new(body, guard.max_body_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
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
    // A body of another type is left to the session, which answers 415.
    if is_json {
        match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Err(e) => {
                return json_rpc_error(ErrorData::parse_error(
                    format!("Parse error: the body is not JSON ({e})"),
                    None,
                ));
            }
            Ok(value) => {
                if let Err(e) = serde_json::from_value::<ClientJsonRpcMessage>(value) {
                    return json_rpc_error(ErrorData::invalid_request(
                        format!(
                            "Invalid Request: the body is not a JSON-RPC request, notification or response MCP defines ({e})"
                        ),
                        None,
                    ));
                }
            }
        }
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
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

    #[test]
    fn origins_match_scheme_host_and_port() {
        let allowed = AllowedOrigin::parse("https://app.example.com").unwrap();
        assert_eq!(allowed.to_rmcp(), "https://app.example.com:443");
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
        assert_eq!(any_port.to_rmcp(), "http://localhost:*");
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
