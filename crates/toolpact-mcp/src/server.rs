//! Serving a [`Registry`] over MCP: `tools/list` straight from the registry, `tools/call`
//! through [`dispatch`](toolpact::dispatch()) (so every call is validated against the tool's full schema,
//! which rmcp alone does not do), and text resources such as the widget templates that tools
//! point at with `_meta["openai/outputTemplate"]`.
//!
//! JSON-RPC framing, the `initialize` handshake, protocol-version negotiation and the
//! per-version shape of results (`resultType`, cache hints) are rmcp's; this module supplies
//! the content.

use crate::convert;
use crate::error::ServeError;
use crate::protocol;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource as RmcpResource,
    ResourceContents, ResourcesCapability, ServerCapabilities, ServerConfig, Tool as RmcpTool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Map, Value};
use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;
use toolpact::{DispatchOptions, Registry, Target, ToolCall};

/// How many tools (or resources) one `tools/list` (or `resources/list`) page holds unless
/// [`Server::with_page_size`] says otherwise.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// A text resource the server serves through `resources/list` and `resources/read`, such as
/// the HTML template of a widget (`ui://widget/gifts.html`, MIME type `text/html+skybridge`).
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// The resource's URI, as tools refer to it.
    pub uri: String,
    /// Its programmatic name.
    pub name: String,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// The content.
    pub text: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// `_meta` of the resource and of its contents (for example `openai/widgetDescription`).
    pub meta: Option<Map<String, Value>>,
}

impl Resource {
    /// A text resource with a URI, a name, a MIME type and its text.
    pub fn text(
        uri: impl Into<String>,
        name: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Resource {
            uri: uri.into(),
            name: name.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
            title: None,
            description: None,
            meta: None,
        }
    }
}

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
    resources: Vec<Resource>,
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
            resources: Vec::new(),
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
    pub fn with_resource(mut self, resource: Resource) -> Self {
        self.resources.push(resource);
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
                if !self.resources.iter().any(|r| r.uri == uri) {
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
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if !self.resources.is_empty() {
            capabilities.resources = Some(ResourcesCapability::default());
        }
        let mut info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(self.name, self.version));
        if let Some(instructions) = self.instructions {
            info = info.with_instructions(instructions);
        }
        let resources = self
            .resources
            .iter()
            .map(|r| {
                let mut listed = RmcpResource::new(&r.uri, &r.name);
                listed.mime_type.clone_from(&r.mime_type);
                listed.title.clone_from(&r.title);
                listed.description.clone_from(&r.description);
                listed.meta = r.meta.clone().map(rmcp::model::MetaObject);
                listed
            })
            .collect();
        Handler(Arc::new(Shared {
            registry: self.registry,
            tools: self.tools,
            resources: self.resources,
            listed_resources: resources,
            info,
            page_size: self.page_size,
            dispatch: self.dispatch,
            call_data: self.call_data,
        }))
    }
}

struct Shared {
    registry: Registry,
    tools: Vec<RmcpTool>,
    resources: Vec<Resource>,
    listed_resources: Vec<RmcpResource>,
    info: ServerConfig,
    page_size: usize,
    dispatch: DispatchOptions,
    call_data: Option<Arc<CallData>>,
}

/// The rmcp handler: cheap to clone, one per connection or HTTP session.
#[derive(Clone)]
pub(crate) struct Handler(Arc<Shared>);

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

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        self.0.info.clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(protocol::served())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let (tools, next) = page(&self.0.tools, request.as_ref(), self.0.page_size)?;
        let mut result = ListToolsResult::with_all_items(tools.to_vec());
        result.next_cursor = next;
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<RmcpTool> {
        self.0.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let version = context.protocol_version().map_or_else(
            || protocol::PROTOCOL_VERSIONS[0].to_owned(),
            |v| v.to_string(),
        );
        let call = ToolCall {
            format: Target::Mcp,
            id: Some(context.id.to_string()),
            name: request.name.to_string(),
            arguments: Ok(Value::Object(request.arguments.unwrap_or_default())),
        };
        let mut options = self.0.dispatch.clone();
        if let Some(call_data) = &self.0.call_data {
            let info = CallInfo {
                tool: &call.name,
                headers: context
                    .extensions
                    .get::<http::request::Parts>()
                    .map(|parts| &parts.headers),
            };
            if let Some(data) = call_data(&info) {
                options.data = Some(data);
            }
        }
        let dispatched = tokio::select! {
            dispatched = toolpact::dispatch(&self.0.registry, &call, &options) => dispatched,
            () = context.ct.cancelled() => {
                return Err(ErrorData::internal_error("the client cancelled the call", None));
            }
        };
        if dispatched.is_protocol_error() {
            // MCP: an unknown tool is a protocol error (-32602), not a tool result.
            return Err(ErrorData::invalid_params(
                dispatched.result.text_content(),
                None,
            ));
        }
        let result: CallToolResult = convert::result_to_rmcp(&call, &dispatched.result, &version);
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if self.0.resources.is_empty() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ListResourcesRequestMethod,
            >());
        }
        let (resources, next) = page(&self.0.listed_resources, request.as_ref(), self.0.page_size)?;
        let mut result = ListResourcesResult::with_all_items(resources.to_vec());
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(resource) = self.0.resources.iter().find(|r| r.uri == request.uri) else {
            return Err(ErrorData::resource_not_found(
                format!("no resource has the URI {}", request.uri),
                None,
            ));
        };
        let contents = ResourceContents::TextResourceContents {
            uri: resource.uri.clone(),
            mime_type: resource.mime_type.clone(),
            text: resource.text.clone(),
            meta: resource.meta.clone().map(rmcp::model::MetaObject),
        };
        Ok(ReadResourceResponse::Complete(ReadResourceResult::new(
            vec![contents],
        )))
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
}
