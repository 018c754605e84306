//! Serving a [`Registry`] over MCP: `tools/list` straight from the registry, `tools/call`
//! through [`dispatch`](toolpact::dispatch()) (so every call is validated against the tool's full schema,
//! which rmcp alone does not do), with the handler reaching the client through its
//! [`CallContext`](toolpact::CallContext) (progress, log messages, sampling, elicitation,
//! cancellation); prompts with checked arguments, resources (text and binary, fixed or from
//! URI templates, with subscriptions: `resources/subscribe` up to 2025-11-25,
//! `subscriptions/listen` from 2026-07-28), completions, and `logging/setLevel`.
//!
//! JSON-RPC framing, the `initialize` handshake, protocol-version negotiation and the
//! per-version shape of results (`resultType`, cache hints) are rmcp's; this module supplies
//! the content. A request whose params rmcp cannot read (a `tools/call` whose `arguments` is a
//! string) reaches [`ServerHandler::on_custom_request`], which answers `-32602` with the reason
//! instead of rmcp's `-32601`.

// Sampling, logging and `resources/subscribe` are deprecated in rmcp by SEP-2577, which drops
// them from the 2026-07-28 revision; the revisions before it, which this crate serves too,
// define them, and clients of those revisions use them.
#![allow(deprecated)]

use crate::context::{RequestStream, Session, SessionClient};
use crate::convert;
use crate::error::ServeError;
use crate::prompts::{Prompt, complete};
use crate::protocol;
use crate::resources::{Resource, ResourceTemplate, Resources};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CustomRequest, CustomResult, ErrorCode, ErrorData, GetPromptRequestParams, GetPromptResponse,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, PromptsCapability, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ResourcesCapability, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter,
    Tool as RmcpTool, UnsubscribeRequestParams,
};
use rmcp::service::{MaybeSendFuture, NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Map, Value, json};
use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;
use toolpact::{Cancellation, DispatchOptions, LogLevel, Registry, Target, ToolCall};

/// How many tools (or resources, prompts) one `tools/list` (or `resources/list`,
/// `prompts/list`) page holds unless [`Server::with_page_size`] says otherwise.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// What the server knows about a call when it decides which data to attach to it.
#[derive(Debug, Clone, Copy)]
pub struct CallInfo<'a> {
    tool: &'a str,
    headers: Option<&'a http::HeaderMap>,
}

impl<'a> CallInfo<'a> {
    /// The tool name as the client sent it.
    pub fn tool(&self) -> &'a str {
        self.tool
    }

    /// An HTTP header of the request that carried the call (Streamable HTTP only; `None` on
    /// stdio, or when the header is absent or not text).
    pub fn header(&self, name: &str) -> Option<&'a str> {
        self.headers?.get(name)?.to_str().ok()
    }
}

type CallData = dyn Fn(&CallInfo<'_>) -> Option<Arc<dyn Any + Send + Sync>> + Send + Sync + 'static;

/// An MCP server for a [`Registry`]: build it, add resources, then serve it over stdio
/// ([`Server::serve_stdio`]), Streamable HTTP ([`Server::bind_http`]) or any byte stream
/// ([`Server::serve_io`]).
///
/// ```no_run
/// # async fn run(registry: toolpact::Registry) -> Result<(), toolpact_mcp::ServeError> {
/// use toolpact_mcp::{HttpOptions, Server};
///
/// let server = Server::new(registry)?.with_name("gift-shop", "1.0.0");
/// let http = server.bind_http(HttpOptions::default()).await?;
/// eprintln!("listening on {}", http.url());
/// http.serve_until(toolpact_mcp::shutdown_signal()).await
/// # }
/// ```
pub struct Server {
    registry: Registry,
    tools: Vec<RmcpTool>,
    dropped: Vec<String>,
    resources: Resources,
    live_resources: bool,
    templates: Vec<ResourceTemplate>,
    prompts: Vec<Prompt>,
    name: String,
    version: String,
    instructions: Option<String>,
    page_size: usize,
    dispatch: DispatchOptions,
    call_data: Option<Arc<CallData>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.name)
            .field("tools", &self.tools.len())
            .field("resources", &self.resources.len())
            .field("templates", &self.templates.len())
            .field("prompts", &self.prompts.len())
            .field("page_size", &self.page_size)
            .finish()
    }
}

impl Server {
    /// A server for every tool of the registry, in registration order. Fails when a tool cannot
    /// be put in rmcp's wire model at all; fields the model has no place for are left out and
    /// listed by [`Server::notes`].
    pub fn new(registry: Registry) -> Result<Server, ServeError> {
        let mut tools = Vec::with_capacity(registry.len());
        let mut dropped = Vec::new();
        for tool in registry.tools() {
            let (converted, lost) =
                convert::tool_to_rmcp(tool).map_err(|message| ServeError::Tool {
                    tool: tool.name.clone(),
                    message,
                })?;
            dropped.extend(lost.into_iter().map(|pointer| {
                format!(
                    "tool {:?}: {pointer} is not served: rmcp's Tool model has no place for it",
                    tool.name
                )
            }));
            tools.push(converted);
        }
        Ok(Server {
            registry,
            tools,
            dropped,
            resources: Resources::default(),
            live_resources: false,
            templates: Vec::new(),
            prompts: Vec::new(),
            name: "toolpact".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            instructions: None,
            page_size: DEFAULT_PAGE_SIZE,
            dispatch: DispatchOptions::default(),
            call_data: None,
        })
    }

    /// The name and version the server gives in `serverInfo`.
    pub fn with_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    /// Instructions for the client, sent with the `initialize` result.
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// How many tools one `tools/list` page holds (at least 1); longer lists are paginated with
    /// `nextCursor`.
    pub fn with_page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// How calls are dispatched: time limit, lenient repairs, message length, and the data
    /// attached to every call ([`DispatchOptions::data`], such as the authenticated user).
    pub fn with_dispatch_options(mut self, options: DispatchOptions) -> Self {
        self.dispatch = options;
        self
    }

    /// The options every call is dispatched with.
    pub fn dispatch_options(&self) -> &DispatchOptions {
        &self.dispatch
    }

    /// Decides, per call, the data its handler finds in [`toolpact::CallContext::data`] (for
    /// example the user an HTTP header authenticates). It replaces [`DispatchOptions::data`]
    /// when it returns `Some`. The model never provides this data: it comes from the request.
    pub fn with_call_data<F>(mut self, f: F) -> Self
    where
        F: Fn(&CallInfo<'_>) -> Option<Arc<dyn Any + Send + Sync>> + Send + Sync + 'static,
    {
        self.call_data = Some(Arc::new(f));
        self
    }

    /// Adds a resource.
    pub fn with_resource(self, resource: Resource) -> Self {
        self.resources.push(resource);
        self
    }

    /// The handle that adds and removes resources while the server runs, telling the connected
    /// clients, and tells the clients subscribed to a resource that it changed. Taking it
    /// declares the `resources` capability (with `listChanged`) even while there are none.
    pub fn resources(&mut self) -> Resources {
        self.live_resources = true;
        self.resources.clone()
    }

    /// Adds resources whose URIs follow a template (listed by `resources/templates/list`,
    /// read through `resources/read` when no fixed resource has the URI).
    pub fn with_resource_template(mut self, template: ResourceTemplate) -> Self {
        self.templates.push(template);
        self
    }

    /// Adds a prompt (`prompts/list`, `prompts/get`).
    pub fn with_prompt(mut self, prompt: Prompt) -> Self {
        self.prompts.push(prompt);
        self
    }

    /// The registry being served.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What the server cannot serve as declared: fields rmcp's model has no place for, and
    /// widget templates (`_meta["openai/outputTemplate"]`, `_meta.ui.resourceUri`) that no
    /// resource of the server provides. Each note names the tool.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = self.dropped.clone();
        for tool in self.registry.tools() {
            let Some(meta) = &tool.meta else { continue };
            let templates = [
                (
                    "/_meta/openai~1outputTemplate",
                    meta.get("openai/outputTemplate"),
                ),
                (
                    "/_meta/ui/resourceUri",
                    meta.get("ui").and_then(|ui| ui.get("resourceUri")),
                ),
            ];
            for (pointer, uri) in templates {
                let Some(uri) = uri.and_then(Value::as_str) else {
                    continue;
                };
                if !self.resources.with(|all| all.iter().any(|r| r.uri == uri)) {
                    notes.push(format!(
                        "tool {:?}: {pointer} points at {uri}, which this server does not serve as a resource",
                        tool.name
                    ));
                }
            }
        }
        notes
    }

    pub(crate) fn into_handler(self) -> Handler {
        for note in self.notes() {
            tracing::warn!("{note}");
        }
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        let has_resources =
            self.live_resources || !self.resources.is_empty() || !self.templates.is_empty();
        if has_resources {
            let mut resources = ResourcesCapability::default();
            resources.subscribe = Some(true);
            resources.list_changed = Some(self.live_resources);
            capabilities.resources = Some(resources);
        }
        if !self.prompts.is_empty() {
            capabilities.prompts = Some(PromptsCapability::default());
        }
        if !self.prompts.is_empty() || !self.templates.is_empty() {
            capabilities.completions = Some(Map::new());
        }
        let mut info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(self.name, self.version));
        if let Some(instructions) = self.instructions {
            info = info.with_instructions(instructions);
        }
        Handler {
            shared: Arc::new(Shared {
                registry: self.registry,
                tools: self.tools,
                listed_templates: self
                    .templates
                    .iter()
                    .map(ResourceTemplate::listed)
                    .collect(),
                listed_prompts: self.prompts.iter().map(Prompt::listed).collect(),
                resources: self.resources,
                has_resources,
                live_resources: self.live_resources,
                templates: self.templates,
                prompts: self.prompts,
                info,
                page_size: self.page_size,
                dispatch: self.dispatch,
                call_data: self.call_data,
            }),
            session: Arc::default(),
        }
    }
}

struct Shared {
    registry: Registry,
    tools: Vec<RmcpTool>,
    resources: Resources,
    has_resources: bool,
    /// Whether resources may be added and removed while the server runs (`listChanged`).
    live_resources: bool,
    templates: Vec<ResourceTemplate>,
    listed_templates: Vec<Value>,
    prompts: Vec<Prompt>,
    listed_prompts: Vec<Value>,
    info: ServerConfig,
    page_size: usize,
    dispatch: DispatchOptions,
    call_data: Option<Arc<CallData>>,
}

impl Shared {
    fn has_resources(&self) -> bool {
        self.has_resources
    }

    /// Whether `uri` names a resource of the server, fixed or from a template.
    fn knows_resource(&self, uri: &str) -> bool {
        self.resources.with(|all| all.iter().any(|r| r.uri == uri))
            || self.templates.iter().any(|t| t.matches(uri).is_some())
    }
}

/// The rmcp handler: one per connection or HTTP session. Cloning it shares the server's
/// content but starts a new [`Session`] (log level, subscriptions): rmcp takes one handler per
/// session (the HTTP transport clones the served one for each new session) and keeps it
/// behind an `Arc` for the session's life.
pub(crate) struct Handler {
    shared: Arc<Shared>,
    session: Arc<Session>,
}

impl Clone for Handler {
    fn clone(&self) -> Self {
        Handler {
            shared: Arc::clone(&self.shared),
            session: Arc::default(),
        }
    }
}

/// The slice of `items` a cursor points at, and the cursor of the next page. Cursors are
/// opaque to clients (MCP pagination); here they are the offset of the page's first item.
fn page<'a, T>(
    items: &'a [T],
    params: Option<&PaginatedRequestParams>,
    size: usize,
) -> Result<(&'a [T], Option<String>), ErrorData> {
    let start = match params.and_then(|p| p.cursor.as_deref()) {
        None => 0,
        Some(cursor) => match cursor.parse::<usize>() {
            Ok(offset) if offset <= items.len() => offset,
            _ => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "invalid cursor {cursor:?}: pass back the nextCursor of the previous page"
                    ),
                    None,
                ));
            }
        },
    };
    let end = start.saturating_add(size).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((&items[start..end], next))
}

/// A page of listed items as the JSON of a list result (`{"<key>": [...], "nextCursor"?}`),
/// read into rmcp's result type.
fn list_result<T: serde::de::DeserializeOwned>(
    key: &str,
    items: &[Value],
    params: Option<&PaginatedRequestParams>,
    size: usize,
) -> Result<T, ErrorData> {
    let (items, next) = page(items, params, size)?;
    let mut result = json!({ key: items });
    if let Some(next) = next {
        result["nextCursor"] = json!(next);
    }
    from_json(result)
}

/// A value of rmcp's wire model from the JSON this module builds; a failure is a bug of the
/// server's content (a content block rmcp cannot hold), reported as an internal error.
fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| {
        tracing::error!(error = %e, "a result does not fit rmcp's model");
        ErrorData::internal_error(format!("the server built an invalid result: {e}"), None)
    })
}

/// Method-not-found for the resource methods of a server that has no resources, so that
/// `resources/list`, `resources/read` and the others answer alike.
fn no_resources(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("{method}: this server has no resources"),
        None,
    )
}

/// The methods a client may send, each with the fields its params must have. A request for
/// one of them that reaches [`ServerHandler::on_custom_request`] had params rmcp could not
/// read.
const KNOWN_METHODS: [(&str, &[&str]); 14] = [
    (
        "initialize",
        &["protocolVersion", "capabilities", "clientInfo"],
    ),
    ("ping", &[]),
    ("tools/list", &[]),
    ("tools/call", &["name"]),
    ("resources/list", &[]),
    ("resources/templates/list", &[]),
    ("resources/read", &["uri"]),
    ("resources/subscribe", &["uri"]),
    ("resources/unsubscribe", &["uri"]),
    ("prompts/list", &[]),
    ("prompts/get", &["name"]),
    ("completion/complete", &["ref", "argument"]),
    ("logging/setLevel", &["level"]),
    ("subscriptions/listen", &["notifications"]),
];

/// Why the params of a known method could not be read: what a `-32602` error says.
fn params_problem(method: &str, required: &[&str], params: Option<&Value>) -> String {
    let Some(params) = params.filter(|p| !p.is_null()) else {
        return format!(
            "{method} needs params with {}",
            required
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let Some(object) = params.as_object() else {
        return format!(
            "the params of {method} must be an object, not {}",
            crate::prompts::json_type(params)
        );
    };
    for field in required {
        if !object.contains_key(*field) {
            return format!("the params of {method} have no `{field}`");
        }
    }
    let string_fields: &[&str] = match method {
        "tools/call" | "prompts/get" => &["name"],
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => &["uri"],
        _ => &[],
    };
    for field in string_fields {
        if let Some(value) = object.get(*field).filter(|v| !v.is_string()) {
            return format!(
                "`{field}` in the params of {method} must be a string, not {}",
                crate::prompts::json_type(value)
            );
        }
    }
    if let Some(arguments) = object
        .get("arguments")
        .filter(|a| !a.is_object() && !a.is_null())
    {
        let what = if method == "tools/call" {
            "the tool's arguments by name"
        } else {
            "the arguments by name"
        };
        return format!(
            "`arguments` in the params of {method} must be an object of {what}, not {}",
            crate::prompts::json_type(arguments)
        );
    }
    format!("the params of {method} do not have the shape the protocol defines")
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(protocol::served())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let (tools, next) = page(&self.shared.tools, request.as_ref(), self.shared.page_size)?;
        let mut result = ListToolsResult::with_all_items(tools.to_vec());
        result.next_cursor = next;
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<RmcpTool> {
        self.shared.tools.iter().find(|t| t.name == name).cloned()
    }

    /// Not an `async fn`: rmcp runs each request in a task as large as its largest handler's
    /// future, and an `async fn` keeps its arguments (the request and its context) beside the
    /// future it awaits. The call is prepared here; the future holds the dispatch and what the
    /// answer needs.
    fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + MaybeSendFuture + '_ {
        // The known versions are static strings: reading the version copies nothing.
        let version = context.protocol_version();
        let RequestContext {
            ct,
            id,
            meta,
            extensions,
            peer,
            ..
        } = context;
        let call = ToolCall {
            format: Target::Mcp,
            id: Some(id.to_string()),
            name: request.name.into_owned(),
            arguments: Ok(Value::Object(request.arguments.unwrap_or_default())),
        };
        let mut options = self.shared.dispatch.clone();
        if let Some(call_data) = &self.shared.call_data {
            let info = CallInfo {
                tool: &call.name,
                headers: extensions
                    .get::<http::request::Parts>()
                    .map(|parts| &parts.headers),
            };
            if let Some(data) = call_data(&info) {
                options.data = Some(data);
            }
        }
        // The request's `_meta` is the handler's, moved rather than copied; none when empty.
        let meta = Some(meta.0.0).filter(|meta| !meta.is_empty());
        // Under 2026-07-28 a request carries the client's log level in its `_meta`.
        let request_level = meta
            .as_ref()
            .and_then(|m| m.get("io.modelcontextprotocol/logLevel"))
            .and_then(Value::as_str)
            .and_then(LogLevel::from_name);
        if let Some(level) = request_level {
            self.session.set_log_level(level);
        }
        let cancellation = Cancellation::default();
        options.cancellation = Some(cancellation.clone());
        options.meta = meta;
        options.client = Some(Arc::new(SessionClient::new(
            peer,
            Arc::clone(&self.session),
            extensions.get::<RequestStream>().cloned(),
        )));
        async move {
            // The handler runs in this task, so that the requests it sends the client
            // (sampling, elicitation) ride this request's stream. A `notifications/cancelled`
            // sets its cancellation flag; the handler decides how soon to stop, within the
            // time limit. The call is moved into the dispatch: the arguments reach the handler
            // uncopied.
            let mut dispatching = std::pin::pin!(toolpact::dispatch_owned(
                &self.shared.registry,
                call,
                &options
            ));
            let dispatched = tokio::select! {
                // The call first: most answer on their first poll, and then the cancellation
                // token is never waited on (waiting registers with it, under its lock).
                biased;
                dispatched = &mut dispatching => dispatched,
                () = ct.cancelled() => {
                    cancellation.cancel();
                    dispatching.await
                }
            };
            if dispatched.is_protocol_error() {
                // MCP: an unknown tool is a protocol error (-32602), not a tool result.
                return Err(ErrorData::invalid_params(
                    dispatched.result.text_content(),
                    None,
                ));
            }
            let version = version
                .as_ref()
                .map_or(protocol::PROTOCOL_VERSIONS[0], ProtocolVersion::as_str);
            let result: CallToolResult = convert::result_to_rmcp(dispatched.result, version);
            Ok(CallToolResponse::Complete(result))
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let name = serde_json::to_value(request.level).unwrap_or_default();
        let level = name
            .as_str()
            .and_then(LogLevel::from_name)
            .ok_or_else(|| ErrorData::invalid_params(format!("unknown log level {name}"), None))?;
        self.session.set_log_level(level);
        Ok(())
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if self.shared.prompts.is_empty() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ListPromptsRequestMethod,
            >());
        }
        list_result(
            "prompts",
            &self.shared.listed_prompts,
            request.as_ref(),
            self.shared.page_size,
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let Some(prompt) = self.shared.prompts.iter().find(|p| p.name == request.name) else {
            let names: Vec<&str> = self
                .shared
                .prompts
                .iter()
                .map(|p| p.name.as_str())
                .collect();
            let hint = toolpact::closest_name(&request.name, names.iter().copied())
                .map(|name| format!("; did you mean {name:?}?"))
                .unwrap_or_default();
            return Err(ErrorData::invalid_params(
                format!("no prompt is named {:?}{hint}", request.name),
                None,
            ));
        };
        let result = prompt
            .get(request.arguments.as_ref())
            .map_err(|reason| ErrorData::invalid_params(reason, None))?;
        Ok(GetPromptResponse::Complete(from_json(result)?))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let reference = serde_json::to_value(&request.r#ref).unwrap_or_default();
        let argument = &request.argument.name;
        let candidates = match reference.get("type").and_then(Value::as_str) {
            Some("ref/prompt") => {
                let name = reference.get("name").and_then(Value::as_str).unwrap_or("");
                let prompt = self.shared.prompts.iter().find(|p| p.name == name);
                let Some(prompt) = prompt else {
                    return Err(ErrorData::invalid_params(
                        format!("no prompt is named {name:?}"),
                        None,
                    ));
                };
                if !prompt.arguments.iter().any(|a| &a.name == argument) {
                    return Err(ErrorData::invalid_params(
                        format!("prompt {name:?} has no argument {argument:?}"),
                        None,
                    ));
                }
                prompt.completions.get(argument)
            }
            _ => {
                let uri = reference.get("uri").and_then(Value::as_str).unwrap_or("");
                let template = self.shared.templates.iter().find(|t| t.uri_template == uri);
                let Some(template) = template else {
                    return Err(ErrorData::invalid_params(
                        format!("no resource template is {uri:?}"),
                        None,
                    ));
                };
                template.completions.get(argument)
            }
        };
        let completion = complete(
            candidates.map_or(&[][..], Vec::as_slice),
            &request.argument.value,
        );
        from_json(json!({ "completion": completion }))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if !self.shared.has_resources() {
            return Err(no_resources("resources/list"));
        }
        let listed: Vec<Value> = self
            .shared
            .resources
            .with(|all| all.iter().map(Resource::listed).collect());
        list_result(
            "resources",
            &listed,
            request.as_ref(),
            self.shared.page_size,
        )
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        if !self.shared.has_resources() {
            return Err(no_resources("resources/templates/list"));
        }
        list_result(
            "resourceTemplates",
            &self.shared.listed_templates,
            request.as_ref(),
            self.shared.page_size,
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !self.shared.has_resources() {
            return Err(no_resources("resources/read"));
        }
        let uri = request.uri.as_str();
        let fixed = self
            .shared
            .resources
            .with(|all| all.iter().find(|r| r.uri == uri).map(Resource::contents));
        let contents = if let Some(contents) = fixed {
            contents
        } else if let Some((template, variables)) = self
            .shared
            .templates
            .iter()
            .find_map(|t| t.matches(uri).map(|vars| (t, vars)))
        {
            match template.read(uri, &variables) {
                Ok(resource) => resource.contents(),
                Err(toolpact::ToolError::ForModel(message)) => {
                    return Err(ErrorData::resource_not_found(message, None));
                }
                Err(other) => {
                    tracing::error!(%uri, error = %other, "reading a resource failed");
                    return Err(ErrorData::internal_error(
                        format!("reading {uri} failed with an internal error"),
                        None,
                    ));
                }
            }
        } else {
            return Err(ErrorData::resource_not_found(
                format!("no resource has the URI {uri}"),
                Some(json!({ "uri": uri })),
            ));
        };
        Ok(ReadResourceResponse::Complete(from_json(
            json!({ "contents": [contents] }),
        )?))
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.shared.has_resources() {
            return Err(no_resources("resources/subscribe"));
        }
        if !self.shared.knows_resource(&request.uri) {
            return Err(ErrorData::resource_not_found(
                format!("no resource has the URI {}", request.uri),
                Some(json!({ "uri": request.uri })),
            ));
        }
        self.session.subscribe(&request.uri, true);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.shared.has_resources() {
            return Err(no_resources("resources/unsubscribe"));
        }
        self.session.subscribe(&request.uri, false);
        Ok(())
    }

    /// What a `subscriptions/listen` stream (2026-07-28) may carry: resource list changes when
    /// resources can change while the server runs, and updates of the requested resources the
    /// server has. Tools and prompts are fixed once the server runs, so their lists never
    /// change.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        if self.shared.live_resources && requested.resources_list_changed == Some(true) {
            accepted.resources_list_changed = Some(true);
        }
        if self.shared.has_resources() {
            accepted.resource_subscriptions =
                requested.resource_subscriptions.as_ref().map(|uris| {
                    uris.iter()
                        .filter(|uri| self.shared.knows_resource(uri))
                        .cloned()
                        .collect()
                });
        }
        Some(accepted)
    }

    /// Runs one `subscriptions/listen` stream: rmcp has acknowledged what it accepted; the
    /// stream is told of changes until the client cancels it or the server stops.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = Arc::new(context.sink().clone());
        self.shared.resources.listen(&sink);
        context.cancelled().await;
        self.shared.resources.stop_listening(&sink);
        Ok(())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tracing::info!("client initialized");
        self.shared.resources.connect(&self.session, context.peer);
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let CustomRequest { method, params, .. } = request;
        match KNOWN_METHODS.iter().find(|(known, _)| *known == method) {
            Some((_, required)) => Err(ErrorData::invalid_params(
                params_problem(&method, required, params.as_ref()),
                None,
            )),
            None => Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method, None)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_follow_offsets_and_reject_foreign_cursors() {
        let items: Vec<u32> = (0..5).collect();
        let (first, next) = page(&items, None, 2).unwrap();
        assert_eq!((first, next.as_deref()), (&[0, 1][..], Some("2")));
        let params = PaginatedRequestParams::default().with_cursor(Some("4".into()));
        let (last, next) = page(&items, Some(&params), 2).unwrap();
        assert_eq!((last, next), (&[4][..], None));
        for bad in ["6", "x", "-1"] {
            let params = PaginatedRequestParams::default().with_cursor(Some(bad.into()));
            let err = page(&items, Some(&params), 2).unwrap_err();
            assert_eq!(err.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        }
    }

    /// rmcp spawns each request in a task as large as its handler's largest future: a call in
    /// flight must cost no more than it does with a handler that has no methods at all.
    #[test]
    fn a_call_in_flight_costs_what_rmcp_needs() {
        let (toolpact, bare) = (request_task_size::<Handler>(), request_task_size::<Bare>());
        assert!(
            toolpact <= bare,
            "{toolpact} bytes a request against rmcp's {bare}"
        );
    }
}

/// The size of the task rmcp spawns for each request to a handler of type `H` (the future of
/// its `handle_request`).
#[cfg(test)]
pub(crate) fn request_task_size<H: ServerHandler + 'static>() -> usize {
    fn size<A, F: Future>(_: &impl Fn(A) -> F) -> usize {
        std::mem::size_of::<F>()
    }
    type Request = rmcp::model::ClientRequest;
    size(
        &|(handler, request, context): (&'static H, Request, RequestContext<RoleServer>)| {
            rmcp::Service::<RoleServer>::handle_request(handler, request, context)
        },
    )
}

/// A handler with none of its own methods: the least rmcp's request task can be.
#[cfg(test)]
#[derive(Clone)]
pub(crate) struct Bare;

#[cfg(test)]
impl ServerHandler for Bare {}
