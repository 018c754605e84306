//! Reading the tools of a live MCP server, in any language: started as a child process (stdio)
//! or reached at a Streamable HTTP URL. Every step has a time limit, `tools/list` is followed
//! page by page (with a bound), the server's own requests (`ping`, `roots/list`) are answered,
//! and a `notifications/tools/list_changed` that arrives while the tools are read makes the
//! client read them again. The result is a [`Catalog`] whose origin is the command or URL, with
//! pointers `/tools/<i>`: linting a live server is linting the file `toolpact fetch` writes.

use crate::child::{self, Child, ServerStderr};
use crate::convert;
use crate::error::ClientError;
use crate::protocol;
use rmcp::model::{
    CallToolRequestParams, ClientConfig, ClientRequest, ErrorData, Implementation,
    ListToolsRequest, PaginatedRequestParams, ServerResult,
};
// `roots/list` is deprecated in 2026-07-28 (SEP-2577), but older servers still ask for it.
#[allow(deprecated)]
use rmcp::model::ListRootsResult;
use rmcp::service::{ClientInitializeError, NotificationContext, RequestContext, RunningService};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport};
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use toolpact::{Catalog, ImportError, Target, ToolResult};

/// How long each step may take unless [`ClientOptions::timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How many `tools/list` pages are read before the server is taken to page forever.
pub const DEFAULT_MAX_PAGES: usize = 100;

/// How many times the list is read again when it keeps changing while it is read.
const MAX_RELISTS: usize = 3;

/// How long a closing connection waits for a stdio server to exit before killing it.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Where a live server is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// A stdio server, started as a child process.
    Command {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A Streamable HTTP endpoint.
    Url {
        /// The endpoint, such as `http://127.0.0.1:8000/mcp`.
        url: String,
        /// Extra headers sent with every request, as (name, value).
        headers: Vec<(String, String)>,
        /// A token sent as `Authorization: Bearer <token>`.
        bearer_token: Option<String>,
    },
}

impl Source {
    /// A stdio server started as `program args…`.
    pub fn command(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Source {
        Source::Command {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// A Streamable HTTP endpoint with no extra headers and no token.
    pub fn url(url: impl Into<String>) -> Source {
        Source::Url {
            url: url.into(),
            headers: Vec::new(),
            bearer_token: None,
        }
    }

    /// How the source is named in catalogs and messages: the command line, or the URL.
    pub fn origin(&self) -> String {
        match self {
            Source::Command { program, args } => std::iter::once(program)
                .chain(args)
                .map(|word| quote(word))
                .collect::<Vec<_>>()
                .join(" "),
            Source::Url { url, .. } => url.clone(),
        }
    }
}

/// A word of a command line as a shell would need it.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@+,%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// How to talk to a live server.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// The time limit of each step: `initialize`, each `tools/list` page, each `tools/call`.
    pub timeout: Duration,
    /// How many `tools/list` pages are read at most.
    pub max_pages: usize,
    /// What happens to a child server's standard error.
    pub stderr: ServerStderr,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: DEFAULT_TIMEOUT,
            max_pages: DEFAULT_MAX_PAGES,
            stderr: ServerStderr::Capture,
        }
    }
}

/// What the server said about itself in `initialize`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerInfo {
    /// `serverInfo.name`, when the server gave one.
    pub name: Option<String>,
    /// `serverInfo.version`, when the server gave one.
    pub version: Option<String>,
    /// The negotiated protocol version.
    pub protocol_version: String,
    /// The server's instructions, if any.
    pub instructions: Option<String>,
}

/// The tools of a live server, as it listed them.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    /// The command line or URL.
    pub origin: String,
    /// What the server said about itself.
    pub server: Option<ServerInfo>,
    /// The tools, in the server's order, as JSON.
    pub tools: Vec<Value>,
}

impl Fetched {
    /// The tools as an MCP `tools/list` result: `{"tools": [...]}`.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("tools".to_owned(), Value::Array(self.tools.clone()));
        Value::Object(map)
    }

    /// [`Fetched::to_json`] as pretty-printed text with a final newline: what `toolpact fetch`
    /// writes, and the text the catalog's lines and columns refer to.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.to_json()).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The tools as a catalog named after the server, pointers `/tools/<i>`, exactly as the
    /// file [`Fetched::to_text`] would read.
    pub fn catalog(&self) -> Result<Catalog, ImportError> {
        Catalog::from_str_named(&self.to_text(), &self.origin, Some(Target::Mcp))
    }
}

/// Reads the tools of a live server, then closes the connection (and stops the child).
pub async fn fetch_tools(source: &Source, options: &ClientOptions) -> Result<Fetched, ClientError> {
    let connection = Connection::open(source, options).await?;
    let tools = connection.list_tools().await;
    let server = connection.server_info();
    let origin = connection.origin().to_owned();
    connection.close().await;
    Ok(Fetched {
        origin,
        server,
        tools: tools?,
    })
}

/// Reads the tools of a live server as a [`Catalog`].
pub async fn fetch_catalog(
    source: &Source,
    options: &ClientOptions,
) -> Result<Catalog, ClientError> {
    Ok(fetch_tools(source, options).await?.catalog()?)
}

/// The client side of the session: answers the server's requests and counts tool-list changes.
#[derive(Clone)]
struct Watcher {
    list_changes: Arc<AtomicU64>,
}

impl ClientHandler for Watcher {
    async fn ping(&self, _context: RequestContext<RoleClient>) -> Result<(), ErrorData> {
        Ok(())
    }

    // This client exposes no roots.
    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        Ok(ListRootsResult::default())
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.list_changes.fetch_add(1, Ordering::SeqCst);
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            Default::default(),
            Implementation::new("toolpact", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(protocol::requested())
    }
}

/// An open session with a live server. Dropping it stops a child server at once;
/// [`Connection::close`] lets it exit first.
pub struct Connection {
    running: RunningService<RoleClient, Watcher>,
    list_changes: Arc<AtomicU64>,
    origin: String,
    options: ClientOptions,
    child: Option<Child>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Starts or reaches the server and runs `initialize`.
    pub async fn open(source: &Source, options: &ClientOptions) -> Result<Connection, ClientError> {
        let origin = source.origin();
        match source {
            Source::Command { program, args } => {
                if program.is_empty() {
                    return Err(ClientError::Option(
                        "no server command given; write the command after `--`".to_owned(),
                    ));
                }
                let (transport, child) = child::spawn(program, args, &origin, options.stderr)?;
                Connection::start(origin, transport, options, Some(child)).await
            }
            Source::Url {
                url,
                headers,
                bearer_token,
            } => {
                let transport = http_transport(url, headers, bearer_token.as_deref())?;
                Connection::start(origin, transport, options, None).await
            }
        }
    }

    /// Runs `initialize` with a server at the other end of a reader and a writer
    /// (newline-delimited JSON-RPC, as on stdio), such as an in-memory pipe. `origin` names the
    /// server in the catalog and in messages.
    pub async fn open_io<R, W>(
        origin: impl Into<String>,
        (read, write): (R, W),
        options: &ClientOptions,
    ) -> Result<Connection, ClientError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        Connection::start(origin.into(), (read, write), options, None).await
    }

    async fn start<T, E, A>(
        origin: String,
        transport: T,
        options: &ClientOptions,
        mut child: Option<Child>,
    ) -> Result<Connection, ClientError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let list_changes = Arc::new(AtomicU64::new(0));
        let watcher = Watcher {
            list_changes: Arc::clone(&list_changes),
        };
        let running = match tokio::time::timeout(options.timeout, watcher.serve(transport)).await {
            Ok(Ok(running)) => running,
            Ok(Err(e)) => {
                if let Some(child) = &child {
                    child.kill();
                }
                let stray = child.as_ref().and_then(Child::stray_output);
                let stderr = stderr_of(&mut child).await;
                return Err(match (initialize_error(&origin, e, stderr), stray) {
                    (
                        ClientError::Connection {
                            origin,
                            step,
                            message,
                            stderr,
                        },
                        Some(stray),
                    ) => ClientError::Connection {
                        origin,
                        step,
                        message: format!("{message}; {stray}"),
                        stderr,
                    },
                    (error, _) => error,
                });
            }
            Err(_) => {
                if let Some(child) = &child {
                    child.kill();
                }
                let stray = child.as_ref().and_then(Child::stray_output);
                return Err(timeout_error(
                    origin,
                    "initialize",
                    options.timeout,
                    stray,
                    stderr_of(&mut child).await,
                ));
            }
        };
        Ok(Connection {
            running,
            list_changes,
            origin,
            options: options.clone(),
            child,
        })
    }

    /// The command line or URL.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// What the server said about itself in `initialize`.
    pub fn server_info(&self) -> Option<ServerInfo> {
        let info = self.running.peer().peer_info()?;
        Some(ServerInfo {
            name: info.server_info.as_ref().map(|i| i.name.clone()),
            version: info.server_info.as_ref().map(|i| i.version.clone()),
            protocol_version: info.protocol_version.to_string(),
            instructions: info.instructions.clone(),
        })
    }

    /// Every tool the server lists, following `nextCursor`, as JSON. When the server announces
    /// that its list changed while it was being read, the list is read again.
    ///
    /// Tools come through rmcp's `Tool` model: fields it does not know are not seen. When a
    /// page does not fit that model at all (a tool without `inputSchema`, say), the page is
    /// read as raw JSON instead, so the catalog reports the problem where it is.
    pub async fn list_tools(&self) -> Result<Vec<Value>, ClientError> {
        let mut tools = Vec::new();
        for attempt in 0..=MAX_RELISTS {
            let before = self.list_changes.load(Ordering::SeqCst);
            tools = self.list_pages().await?;
            if self.list_changes.load(Ordering::SeqCst) == before {
                return Ok(tools);
            }
            tracing::info!(
                origin = %self.origin,
                attempt = attempt + 1,
                "the server's tool list changed while it was read; reading it again"
            );
        }
        tracing::warn!(
            origin = %self.origin,
            "the server's tool list kept changing while it was read; using the last reading"
        );
        Ok(tools)
    }

    async fn list_pages(&self) -> Result<Vec<Value>, ClientError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..self.options.max_pages.max(1) {
            let params = PaginatedRequestParams::default().with_cursor(cursor.take());
            let request = ClientRequest::ListToolsRequest(ListToolsRequest::with_param(params));
            let result = self
                .step("tools/list", self.running.peer().send_request(request))
                .await?;
            let (page, next) = match result {
                ServerResult::ListToolsResult(result) => (
                    result.tools.iter().map(convert::tool_to_json).collect(),
                    result.next_cursor,
                ),
                // rmcp could not read the page into its model: take it as it came.
                ServerResult::CustomResult(raw) => raw_page(&raw.0).ok_or_else(|| {
                    self.connection_error(
                        "tools/list",
                        "the server's answer is not a tools/list result (no `tools` array)",
                    )
                })?,
                other => {
                    return Err(self.connection_error(
                        "tools/list",
                        &format!("the server's answer is not a tools/list result: {other:?}"),
                    ));
                }
            };
            tools.extend(page);
            match next {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
        Err(ClientError::TooManyPages {
            origin: self.origin.clone(),
            pages: self.options.max_pages.max(1),
        })
    }

    /// Calls a tool. A result with `isError: true` is a result, not an error; a JSON-RPC error
    /// (`-32602` for an unknown tool) is [`ClientError::Protocol`].
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<ToolResult, ClientError> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        match arguments {
            Value::Object(arguments) => params = params.with_arguments(arguments),
            Value::Null => {}
            other => {
                return Err(ClientError::Option(format!(
                    "the arguments of a tool call are a JSON object, not {other}"
                )));
            }
        }
        let result = self
            .step("tools/call", self.running.peer().call_tool(params))
            .await?;
        convert::result_from_rmcp(&result).map_err(|e| self.connection_error("tools/call", &e))
    }

    /// Ends the session: a child server gets a moment to exit on its own, then its process
    /// group is killed.
    pub async fn close(mut self) {
        let _ = self.running.close_with_timeout(CLOSE_GRACE).await;
        if let Some(child) = &mut self.child {
            child.wait_exit(CLOSE_GRACE).await;
            child.kill();
        }
    }

    /// Runs one request with the time limit, mapping failures to errors that name the step.
    async fn step<T>(
        &self,
        step: &str,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, ClientError> {
        match tokio::time::timeout(self.options.timeout, request).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(ServiceError::McpError(error))) => Err(ClientError::Protocol {
                origin: self.origin.clone(),
                step: step.to_owned(),
                code: error.code.0,
                message: error.message.into_owned(),
            }),
            Ok(Err(e)) => Err(ClientError::Connection {
                origin: self.origin.clone(),
                step: step.to_owned(),
                message: match &e {
                    ServiceError::TransportSend(error) => transport_failure(error.error.as_ref()),
                    ServiceError::TransportClosed => "the server closed the connection".to_owned(),
                    other => other.to_string(),
                },
                stderr: self.stderr_now(),
            }),
            Err(_) => {
                if let Some(child) = &self.child {
                    child.kill();
                }
                Err(timeout_error(
                    self.origin.clone(),
                    step,
                    self.options.timeout,
                    self.child.as_ref().and_then(Child::stray_output),
                    self.stderr_now(),
                ))
            }
        }
    }

    fn connection_error(&self, step: &str, message: &str) -> ClientError {
        ClientError::Connection {
            origin: self.origin.clone(),
            step: step.to_owned(),
            message: message.to_owned(),
            stderr: String::new(),
        }
    }

    /// The captured standard error so far (without waiting for more).
    fn stderr_now(&self) -> String {
        self.child
            .as_ref()
            .map(Child::stderr_suffix_now)
            .unwrap_or_default()
    }
}

/// A step that got no answer in time: a time-out, unless the server wrote something else than
/// JSON-RPC to its standard output, which is then what is reported.
fn timeout_error(
    origin: String,
    step: &str,
    limit: Duration,
    stray: Option<String>,
    stderr: String,
) -> ClientError {
    match stray {
        Some(stray) => ClientError::Connection {
            origin,
            step: step.to_owned(),
            message: format!(
                "{stray}; no answer came within {}",
                toolpact::human_duration(limit)
            ),
            stderr,
        },
        None => ClientError::Timeout {
            origin,
            step: step.to_owned(),
            limit,
            stderr,
        },
    }
}

async fn stderr_of(child: &mut Option<Child>) -> String {
    match child {
        Some(child) => child.stderr_suffix().await,
        None => String::new(),
    }
}

/// The tools and next cursor of a `tools/list` result rmcp's model could not read.
fn raw_page(raw: &Value) -> Option<(Vec<Value>, Option<String>)> {
    let tools = raw.get("tools")?.as_array()?.clone();
    let next = raw
        .get("nextCursor")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Some((tools, next))
}

fn initialize_error(origin: &str, error: ClientInitializeError, stderr: String) -> ClientError {
    let failed = |message: String, stderr: String| ClientError::Connection {
        origin: origin.to_owned(),
        step: "initialize".to_owned(),
        message,
        stderr,
    };
    if error.is_authorization_required() {
        let challenge = error
            .auth_challenge()
            .map(|c| format!(" (WWW-Authenticate: {c})"))
            .unwrap_or_default();
        return failed(
            format!(
                "the server requires authorization{challenge}; give it a bearer token or the header it expects"
            ),
            stderr,
        );
    }
    match error {
        ClientInitializeError::JsonRpcError(error) => ClientError::Protocol {
            origin: origin.to_owned(),
            step: "initialize".to_owned(),
            code: error.code.0,
            message: error.message.into_owned(),
        },
        ClientInitializeError::ConnectionClosed(_) => failed(CLOSED.to_owned(), stderr),
        // A server that exits at once may be gone before the request is even written.
        ClientInitializeError::TransportError { error, .. }
            if is_broken_pipe(error.error.as_ref()) =>
        {
            failed(CLOSED.to_owned(), stderr)
        }
        ClientInitializeError::TransportError { error, .. } => {
            failed(transport_failure(error.error.as_ref()), stderr)
        }
        other => failed(other.to_string(), stderr),
    }
}

const CLOSED: &str = "the server closed the connection before answering";

fn is_broken_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    has_kind(error, std::io::ErrorKind::BrokenPipe)
}

/// What a refused connection says.
const REFUSED: &str =
    "connection refused: nothing listens at that address (is the server running, on that port?)";
/// What a reset connection says: a pooled connection to a server that stopped or restarted.
const RESET: &str = "connection reset: the server dropped the connection (did it stop or restart?)";

/// What a transport error says, with the HTTP client's own causes (rmcp keeps them out of the
/// error's chain), and a refused or reset connection said plainly.
pub(crate) fn transport_failure(error: &(dyn std::error::Error + 'static)) -> String {
    let inner: &(dyn std::error::Error + 'static) =
        match error.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            Some(StreamableHttpError::Client(client)) => client,
            _ => error,
        };
    if has_kind(inner, std::io::ErrorKind::ConnectionRefused) {
        return REFUSED.to_owned();
    }
    if has_kind(inner, std::io::ErrorKind::ConnectionReset) {
        return RESET.to_owned();
    }
    causes(inner)
}

/// Whether an I/O error of `kind` is among the error and its causes.
fn has_kind(error: &(dyn std::error::Error + 'static), kind: std::io::ErrorKind) -> bool {
    let mut next = Some(error);
    while let Some(current) = next {
        if current
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == kind)
        {
            return true;
        }
        next = current.source();
    }
    false
}

/// An error and its causes, `outer: inner: innermost`, each said once.
fn causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(error);
    while let Some(current) = next {
        let text = current.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = current.source();
    }
    parts.join(": ")
}

/// rustls needs a process-wide crypto provider before the first HTTPS client is built.
fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may have installed one in the meantime; either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// rmcp's Streamable HTTP client transport for `url`, with its settings as
/// [`http_endpoint`] checks them.
pub(crate) fn http_transport(
    url: &str,
    headers: &[(String, String)],
    bearer_token: Option<&str>,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, ClientError> {
    let (client, config) = http_endpoint(url, headers, bearer_token)?;
    Ok(StreamableHttpClientTransport::with_client(client, config))
}

/// The HTTP client and rmcp's transport settings for a Streamable HTTP endpoint: the URL, the
/// extra headers and the bearer token checked, each refused with a message that says why.
pub(crate) fn http_endpoint(
    url: &str,
    headers: &[(String, String)],
    bearer_token: Option<&str>,
) -> Result<(reqwest::Client, StreamableHttpClientTransportConfig), ClientError> {
    let parsed: http::Uri = url
        .parse()
        .map_err(|e| ClientError::Option(format!("{url:?} is not a URL: {e}")))?;
    if !matches!(parsed.scheme_str(), Some("http" | "https")) || parsed.host().is_none() {
        return Err(ClientError::Option(format!(
            "{url:?} is not an http:// or https:// URL"
        )));
    }
    let mut map = HashMap::new();
    for (name, value) in headers {
        let header_name = http::HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| ClientError::Option(format!("{name:?} is not an HTTP header name")))?;
        let header_value = http::HeaderValue::from_str(value.trim()).map_err(|_| {
            ClientError::Option(format!("the value of header {name:?} is not valid in HTTP"))
        })?;
        map.insert(header_name, header_value);
    }
    install_crypto_provider();
    let client = reqwest::Client::builder()
        .build()
        .map_err(|e| ClientError::Option(format!("cannot set up the HTTP client: {e}")))?;
    let mut config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(map);
    if let Some(token) = bearer_token {
        // Surrounding whitespace is never part of a header value: HTTP would drop it anyway.
        let token = token.trim();
        if token.is_empty() {
            return Err(ClientError::Option("the bearer token is empty".to_owned()));
        }
        if http::HeaderValue::from_str(&format!("Bearer {token}")).is_err() {
            return Err(ClientError::Option(
                "the bearer token cannot be sent in an HTTP header: it has a line break or another control character".to_owned(),
            ));
        }
        config = config.auth_header(token);
    }
    Ok((client, config))
}

impl std::fmt::Display for ServerInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} (MCP {})",
            self.name.as_deref().unwrap_or("an unnamed server"),
            self.version.as_deref().unwrap_or("of unknown version"),
            self.protocol_version
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_quote_what_a_shell_would_split() {
        let source = Source::command("python3", ["server.py", "--name", "my server", "it's"]);
        assert_eq!(
            source.origin(),
            r"python3 server.py --name 'my server' 'it'\''s'"
        );
        assert_eq!(
            Source::url("http://127.0.0.1:8000/mcp").origin(),
            "http://127.0.0.1:8000/mcp"
        );
    }

    #[test]
    fn raw_pages_keep_every_field() {
        let raw =
            serde_json::json!({"tools": [{"name": "x", "readOnlyHint": true}], "nextCursor": "2"});
        let (tools, next) = raw_page(&raw).unwrap();
        assert_eq!(tools[0]["readOnlyHint"], true);
        assert_eq!(next.as_deref(), Some("2"));
        assert!(raw_page(&serde_json::json!({"items": []})).is_none());
    }
}
