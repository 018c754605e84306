//! The proxy over Streamable HTTP: the crate's HTTP front (Origin, Host, bearer and body
//! checks, sessions) with, for each session, a handler that turns rmcp's typed requests back
//! into JSON lines for a relay of its own, started with the session's first request.
//!
//! rmcp's HTTP server reads each message into its model before a handler sees it, and writes
//! each answer from it: over HTTP a field rmcp's model does not know is not passed on, except
//! in the answers to `initialize` and `tools/list`, which the front hands over as the upstream
//! server wrote them (through the gate) for the HTTP server to send as they are
//! (`crate::http::RESULT_AS_IS`): the `tasks` capability and the tools' `execution` field of
//! 2025-11-25 reach the client. Over stdio everything is passed on.

use crate::child::ServerStderr;
use crate::client::Source;
use crate::error::ServeError;
use crate::http::{HttpOptions, HttpServer, as_is_meta, bind_service, request_as_is};
use crate::proxy::relay::{Relay, Shared};
use crate::proxy::upstream;
use crate::proxy::wire::{Frame, LineReader, envelope, error_response, id_key, message, response};
use futures::FutureExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    ServerNotification, SubscribeRequestParams, UnsubscribeRequestParams, UpdateTaskParams,
};
// Logging is deprecated in 2026-07-28 (SEP-2577), but clients of earlier versions set levels.
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::service::{MaybeSendFuture, NotificationContext, RequestContext};
use rmcp::{Peer, RoleServer, ServerHandler, ServiceError};
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio::sync::{OnceCell, oneshot, watch};

/// How long a request waits for `notifications/initialized` to be relayed before it.
const INITIALIZED_WAIT: Duration = Duration::from_secs(5);

/// How much each pipe between a session's handler and its relay holds before it waits.
const PIPE_BUFFER: usize = 256 * 1024;

/// Binds the HTTP front; each session gets its own connection to `upstream`.
pub(crate) async fn bind(
    shared: Arc<Shared>,
    stderr: ServerStderr,
    upstream: Source,
    options: HttpOptions,
) -> Result<HttpServer, ServeError> {
    let upstream = Arc::new(upstream);
    bind_service(
        move || {
            move || {
                Ok(Front {
                    shared: Arc::clone(&shared),
                    stderr,
                    upstream: Arc::clone(&upstream),
                    session: Arc::new(OnceCell::new()),
                })
            }
        },
        options,
    )
    .await
}

/// The handler of one HTTP session.
#[derive(Clone)]
struct Front {
    shared: Arc<Shared>,
    stderr: ServerStderr,
    upstream: Arc<Source>,
    session: Arc<OnceCell<Arc<Session>>>,
}

/// A session's relay, reached through two pipes.
struct Session {
    /// Lines to the relay, as the client's.
    input: tokio::sync::Mutex<DuplexStream>,
    routing: Arc<Routing>,
    /// Whether `initialize` was sent, then whether `notifications/initialized` was: rmcp runs
    /// each request and notification in a task of its own, so a request can overtake the
    /// notification that must come before it.
    lifecycle: watch::Sender<(bool, bool)>,
}

/// What the reader of the relay's output needs: who waits for which answer, and the client.
#[derive(Default)]
struct Routing {
    waiting: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    peer: Mutex<Option<Peer<RoleServer>>>,
    info: Mutex<Option<ServerConfig>>,
}

impl Session {
    async fn send(&self, line: &[u8]) -> Result<(), ErrorData> {
        let mut input = self.input.lock().await;
        input
            .write_all(line)
            .await
            .map_err(|e| ErrorData::internal_error(format!("the proxy's relay is gone: {e}"), None))
    }
}

impl Front {
    /// The session's relay, started on first use.
    async fn session(&self) -> Result<Arc<Session>, ErrorData> {
        self.session
            .get_or_try_init(|| async {
                let connected = upstream::connect(
                    &self.upstream,
                    self.stderr,
                    self.shared.options.max_message_bytes,
                )
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let (front_in, relay_in) = tokio::io::duplex(PIPE_BUFFER);
                let (relay_out, front_out) = tokio::io::duplex(PIPE_BUFFER);
                let relay = Relay::new(
                    Arc::clone(&self.shared),
                    self.upstream.origin(),
                    Box::new(relay_out),
                    connected.write,
                    connected.child,
                );
                tokio::spawn(relay.run(relay_in, connected.read, std::future::pending()));
                let session = Arc::new(Session {
                    input: tokio::sync::Mutex::new(front_in),
                    routing: Arc::new(Routing::default()),
                    lifecycle: watch::Sender::new((false, false)),
                });
                tokio::spawn(read_relay(
                    front_out,
                    Arc::clone(&session.routing),
                    Arc::downgrade(&session),
                    self.shared.options.max_message_bytes,
                ));
                Ok(session)
            })
            .await
            .cloned()
    }

    /// Sends one request through the relay and reads its answer as `T`.
    ///
    /// Not an `async fn`, and neither are the handlers that call it: rmcp runs each request
    /// in a task as large as its largest handler's future, an `async fn` keeps its arguments
    /// (the request and its context) beside the future it awaits, and an `async` block keeps
    /// a future it holds and awaits twice. Built with `map`, each handler's future is about
    /// the size of the exchange's, and the request's task no larger than rmcp's own needs.
    fn forward<T: DeserializeOwned>(
        &self,
        method: &'static str,
        params: Option<impl Serialize>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<T, ErrorData>> + Send + '_ {
        let params = match params.map(serde_json::to_value) {
            Some(Ok(Value::Object(params))) => params,
            _ => Map::new(),
        };
        self.exchange(Cow::Borrowed(method), params, context)
            .map(move |answer| read(method, answer?))
    }

    /// Sends one request through the relay and waits for its answer's result.
    fn exchange(
        &self,
        method: Cow<'static, str>,
        mut params: Map<String, Value>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<Value, ErrorData>> + Send + '_ {
        if let Ok(Value::Object(meta)) = serde_json::to_value(&context.meta)
            && !meta.is_empty()
        {
            params.insert("_meta".to_owned(), Value::Object(meta));
        }
        let key = serde_json::to_value(&context.id).map(|id| id.to_string());
        // The rest of the context (the HTTP request's head among its extensions) is not kept
        // while the call is in flight.
        let RequestContext { ct, peer, .. } = context;
        async move {
            let key = key.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            let session = self.session().await?;
            if method == "initialize" {
                session.lifecycle.send_modify(|l| l.0 = true);
            } else if method != "ping" {
                let mut lifecycle = session.lifecycle.subscribe();
                // Bounded: a client that never sends the notification is served anyway.
                let _ = tokio::time::timeout(
                    INITIALIZED_WAIT,
                    lifecycle.wait_for(|(asked, done)| !asked || *done),
                )
                .await;
            }
            session
                .routing
                .peer
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(peer);
            let (tx, rx) = oneshot::channel();
            session
                .routing
                .waiting
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key.clone(), tx);
            session
                .send(&message(Some(&key), &method, &Value::Object(params)))
                .await?;
            let answer = tokio::select! {
                answer = rx => answer.map_err(|_| ErrorData::internal_error(
                    format!("the proxy's relay ended before the answer to {method} came"),
                    None,
                ))?,
                () = ct.cancelled() => {
                    session.routing.waiting.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
                    return Err(ErrorData::internal_error(format!("{method} was cancelled"), None));
                }
            };
            if let Some(error) = answer.get("error") {
                return Err(serde_json::from_value(error.clone()).unwrap_or_else(|_| {
                    ErrorData::internal_error(format!("the upstream server's error: {error}"), None)
                }));
            }
            Ok(match answer {
                Value::Object(mut answer) => answer.remove("result").unwrap_or(Value::Null),
                _ => Value::Null,
            })
        }
    }

    /// Sends one notification through the relay.
    async fn notify(&self, method: &str, params: Option<impl Serialize>) {
        let Ok(session) = self.session().await else {
            return;
        };
        let params = params
            .and_then(|p| serde_json::to_value(p).ok())
            .unwrap_or_else(|| json!({}));
        let _ = session.send(&message(None, method, &params)).await;
        if method == "notifications/initialized" {
            session.lifecycle.send_modify(|l| l.1 = true);
        }
    }
}

/// Reads what the relay says to the client: answers go to the request that waits for them,
/// the upstream's requests and notifications to the client through rmcp.
async fn read_relay(out: DuplexStream, routing: Arc<Routing>, session: Weak<Session>, max: usize) {
    let mut lines = LineReader::new(out, max);
    while let Some(frame) = lines.next().await {
        let Frame::Line(line) = frame else { continue };
        let Some(envelope) = envelope(line.trim_ascii()) else {
            continue;
        };
        let Ok(value) = serde_json::from_slice::<Value>(line.trim_ascii()) else {
            continue;
        };
        let peer = routing
            .peer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match (envelope.method.as_deref(), envelope.id) {
            (None, Some(id)) => {
                let waiting = routing
                    .waiting
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id_key(id));
                if let Some(waiting) = waiting {
                    // The answer to `initialize` is what the session's capabilities are.
                    if let Some(info) = value.get("result")
                        && info.get("protocolVersion").is_some()
                        && let Ok(config) = serde_json::from_value::<InitializeResult>(info.clone())
                    {
                        *routing.info.lock().unwrap_or_else(|e| e.into_inner()) = Some(config);
                    }
                    let _ = waiting.send(value);
                }
            }
            (Some(method), Some(id)) => {
                let key = id_key(id);
                let Some(peer) = peer else { continue };
                // The request goes out as the upstream wrote it, under rmcp's id for it.
                // Parameters that are not an object have no place in MCP, nor in rmcp's
                // model of a request (it would send `{}`).
                let params = match value.get("params") {
                    None | Some(Value::Null) => None,
                    Some(Value::Object(params)) => Some(params.clone()),
                    Some(_) => {
                        let line = error_response(
                            &key,
                            -32602,
                            "toolpact proxy cannot pass on a request whose params are not an object",
                        );
                        // Sent from a task of its own, as every answer to the upstream
                        // is: this loop must go on reading what the relay writes.
                        let session = session.clone();
                        tokio::spawn(async move {
                            if let Some(session) = session.upgrade() {
                                let _ = session.send(&line).await;
                            }
                        });
                        continue;
                    }
                };
                let request = request_as_is(method, params);
                let session = session.clone();
                tokio::spawn(async move {
                    let line = match peer.send_request(request).await {
                        Ok(result) => match serde_json::to_value(&result) {
                            Ok(result) => response(&key, &result),
                            Err(e) => error_response(&key, -32603, &e.to_string()),
                        },
                        Err(ServiceError::McpError(error)) => {
                            let error = json!({"code": error.code.0, "message": error.message, "data": error.data});
                            let mut out =
                                format!(r#"{{"jsonrpc":"2.0","id":{key},"error":"#).into_bytes();
                            out.extend_from_slice(error.to_string().as_bytes());
                            out.extend_from_slice(b"}\n");
                            out
                        }
                        Err(e) => {
                            error_response(&key, -32603, &format!("the client did not answer: {e}"))
                        }
                    };
                    if let Some(session) = session.upgrade() {
                        let _ = session.send(&line).await;
                    }
                });
            }
            (Some(method), None) => {
                let Some(peer) = peer else { continue };
                let notification = json!({"method": method, "params": value.get("params")});
                match serde_json::from_value::<ServerNotification>(notification) {
                    Ok(notification) => {
                        let _ = peer.send_notification(notification).await;
                    }
                    Err(e) => tracing::debug!("cannot pass {method} to an HTTP client: {e}"),
                }
            }
            (None, None) => {}
        }
    }
}

/// Whether a result asks the client for input first (`resultType: "input_required"`).
fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// A result read as rmcp's `T`.
fn read<T: DeserializeOwned>(method: &str, result: Value) -> Result<T, ErrorData> {
    serde_json::from_value(result).map_err(|e| {
        ErrorData::internal_error(
            format!("the upstream server's answer to {method} cannot be read: {e}"),
            None,
        )
    })
}

impl ServerHandler for Front {
    fn get_info(&self) -> ServerConfig {
        let known = self.session.get().and_then(|s| {
            s.routing
                .info
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone()
        });
        known.unwrap_or_default()
    }

    fn ping(
        &self,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<IgnoredAny>("ping", None::<()>, context)
            .map(|answer| answer.map(drop))
    }

    fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<InitializeResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<Value>("initialize", Some(request), context)
            .map(|answer| {
                let answer = answer?;
                let mut result: InitializeResult = read("initialize", answer.clone())?;
                result.meta = Some(as_is_meta(answer));
                Ok(result)
            })
    }

    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CompleteResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward("completion/complete", Some(request), context)
    }

    #[allow(deprecated)]
    fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<IgnoredAny>("logging/setLevel", Some(request), context)
            .map(|answer| answer.map(drop))
    }

    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetPromptResponse, ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<Value>("prompts/get", Some(request), context)
            .map(|result| {
                let result = result?;
                Ok(if is_input_required(&result) {
                    GetPromptResponse::InputRequired(read("prompts/get", result)?)
                } else {
                    GetPromptResponse::Complete(read("prompts/get", result)?)
                })
            })
    }

    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListPromptsResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward("prompts/list", request, context)
    }

    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourcesResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward("resources/list", request, context)
    }

    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourceTemplatesResult, ErrorData>> + MaybeSendFuture + '_
    {
        self.forward("resources/templates/list", request, context)
    }

    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceResponse, ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<Value>("resources/read", Some(request), context)
            .map(|result| {
                let result = result?;
                Ok(if is_input_required(&result) {
                    ReadResourceResponse::InputRequired(read("resources/read", result)?)
                } else {
                    ReadResourceResponse::Complete(read("resources/read", result)?)
                })
            })
    }

    #[allow(deprecated)]
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<IgnoredAny>("resources/subscribe", Some(request), context)
            .map(|answer| answer.map(drop))
    }

    #[allow(deprecated)]
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<IgnoredAny>("resources/unsubscribe", Some(request), context)
            .map(|answer| answer.map(drop))
    }

    fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<Value>("tools/call", Some(request), context)
            .map(|result| {
                let result = result?;
                Ok(if is_input_required(&result) {
                    CallToolResponse::InputRequired(read("tools/call", result)?)
                } else if result.get("resultType").and_then(Value::as_str) == Some("task") {
                    CallToolResponse::Task(read("tools/call", result)?)
                } else {
                    CallToolResponse::Complete(read("tools/call", result)?)
                })
            })
    }

    fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListToolsResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<Value>("tools/list", request, context)
            .map(|answer| {
                let answer = answer?;
                let mut result: ListToolsResult = read("tools/list", answer.clone())?;
                result.meta = Some(as_is_meta(answer));
                Ok(result)
            })
    }

    fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CustomResult, ErrorData>> + MaybeSendFuture + '_ {
        let params = match request.params {
            Some(Value::Object(params)) => params,
            _ => Map::new(),
        };
        self.exchange(Cow::Owned(request.method), params, context)
            .map(|answer| answer.map(CustomResult))
    }

    fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetTaskResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward("tasks/get", Some(request), context)
    }

    fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<IgnoredAny>("tasks/update", Some(request), context)
            .map(|answer| answer.map(drop))
    }

    fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.forward::<IgnoredAny>("tasks/cancel", Some(request), context)
            .map(|answer| answer.map(drop))
    }

    fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListSkillsResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward("skills/list", request, context)
    }

    fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetSkillResult, ErrorData>> + MaybeSendFuture + '_ {
        self.forward("skills/get", Some(request), context)
    }

    fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceDirectoryResult, ErrorData>> + MaybeSendFuture + '_
    {
        self.forward("resources/directory/read", Some(request), context)
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        self.notify("notifications/cancelled", Some(notification))
            .await;
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        self.notify("notifications/progress", Some(notification))
            .await;
    }

    async fn on_initialized(&self, _context: NotificationContext<RoleServer>) {
        self.notify("notifications/initialized", None::<()>).await;
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        self.notify("notifications/roots/list_changed", None::<()>)
            .await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleServer>,
    ) {
        self.notify(&notification.method, notification.params).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::{Bare, request_task_size};

    /// rmcp spawns each request in a task as large as its handler's largest future: the
    /// proxy's front must not make the task of every call in flight larger than rmcp needs.
    #[test]
    fn a_call_in_flight_costs_what_rmcp_needs() {
        let (front, bare) = (request_task_size::<Front>(), request_task_size::<Bare>());
        assert!(
            front <= bare,
            "{front} bytes a request against rmcp's {bare}"
        );
    }
}
