//! What a tool's implementation is: the [`Handler`] trait over JSON arguments, the
//! [`CallContext`] it runs with, its [`Cancellation`] flag and the [`ToolError`] it may
//! return; and the [`ClientPeer`] through which a running handler reaches the client that
//! made the call (progress, log messages, sampling, elicitation), which a server transport
//! implements.

use crate::result::{Content, ToolResult};
use futures::future::BoxFuture;
use serde_json::{Map, Value};
use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag a handler checks to stop early; set when the call's time limit passes or the client
/// cancels the request (MCP `notifications/cancelled`).
#[derive(Debug, Clone, Default)]
pub struct Cancellation(Arc<AtomicBool>);

impl Cancellation {
    /// Whether the call has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Cancels the call.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What a handler knows besides its arguments.
#[derive(Clone, Default)]
pub struct CallContext {
    /// Set when the call should stop (time limit reached).
    pub cancellation: Cancellation,
    /// The provider's call id.
    pub call_id: Option<String>,
    /// Data the server attaches to every call, such as the authenticated user. The model never
    /// provides it.
    pub data: Option<Arc<dyn Any + Send + Sync>>,
    /// The `_meta` object of the request that carried the call (MCP), if it had one.
    pub meta: Option<Map<String, Value>>,
    /// The client that made the call, when the server can reach it (an MCP session); `None`
    /// when the call was dispatched without one, and then the methods that talk to the client
    /// do nothing or fail with [`ClientRequestError::NoClient`].
    pub client: Option<Arc<dyn ClientPeer>>,
}

impl CallContext {
    /// The attached data, if it is a `T`.
    pub fn data<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.data.as_deref().and_then(|d| d.downcast_ref::<T>())
    }

    /// The request's `_meta` object, if it had one.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The progress token the client sent in `_meta.progressToken` (a string or a number),
    /// which asks for progress notifications about this call.
    pub fn progress_token(&self) -> Option<&Value> {
        self.meta
            .as_ref()?
            .get("progressToken")
            .filter(|token| token.is_string() || token.is_number())
    }

    /// Reports progress to the client (`notifications/progress`, tied to the request's progress
    /// token). Does nothing when the client asked for no progress or cannot be reached: a tool
    /// reports progress without knowing who listens.
    pub async fn progress(&self, progress: Progress) -> Result<(), ClientRequestError> {
        match (&self.client, self.progress_token()) {
            (Some(client), Some(token)) => client.notify_progress(token.clone(), progress).await,
            _ => Ok(()),
        }
    }

    /// Sends a log message to the client (`notifications/message`), if the client's level
    /// (`logging/setLevel`) lets `level` through. Does nothing without a client.
    pub async fn log(
        &self,
        level: LogLevel,
        data: impl Into<Value>,
    ) -> Result<(), ClientRequestError> {
        match &self.client {
            Some(client) => client.log(level, None, data.into()).await,
            None => Ok(()),
        }
    }

    /// Asks the client to sample its language model (`sampling/createMessage`) and waits for
    /// the answer.
    pub async fn create_message(
        &self,
        request: SamplingRequest,
    ) -> Result<SamplingResult, ClientRequestError> {
        self.require_client()?.create_message(request).await
    }

    /// Asks the client to ask its user for values (`elicitation/create`, a form described by
    /// a JSON Schema) and waits for the answer.
    pub async fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> Result<ElicitationResult, ClientRequestError> {
        self.require_client()?.elicit(request).await
    }

    fn require_client(&self) -> Result<&Arc<dyn ClientPeer>, ClientRequestError> {
        self.client.as_ref().ok_or(ClientRequestError::NoClient)
    }
}

impl std::fmt::Debug for CallContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("cancelled", &self.cancellation.is_cancelled())
            .field("call_id", &self.call_id)
            .field("data", &self.data.is_some())
            .field("meta", &self.meta)
            .field("client", &self.client.is_some())
            .finish()
    }
}

/// A failure inside a handler.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// A failure the model should read and can act on (an unknown id, a business rule).
    #[error("{0}")]
    ForModel(String),
    /// Anything else: logged with its details; the model reads a generic message.
    #[error("{0}")]
    Internal(String),
}

impl ToolError {
    /// A failure the model reads as it is.
    pub fn for_model(message: impl Into<String>) -> Self {
        ToolError::ForModel(message.into())
    }

    /// A failure whose details go to the log only.
    pub fn internal(message: impl Into<String>) -> Self {
        ToolError::Internal(message.into())
    }
}

/// A tool implementation over JSON arguments.
pub trait Handler: Send + Sync + 'static {
    /// Runs the tool with arguments that already passed the tool's schema.
    fn call(
        &self,
        arguments: Value,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolResult, ToolError>>;
}

impl<F, Fut> Handler for F
where
    F: Fn(Value, CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ToolResult, ToolError>> + Send + 'static,
{
    fn call(
        &self,
        arguments: Value,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolResult, ToolError>> {
        Box::pin(self(arguments, ctx))
    }
}

/// The client that made a call, as a running handler reaches it. A server transport implements
/// it per session (toolpact-mcp does, for MCP over stdio and Streamable HTTP); handlers use it
/// through [`CallContext`].
pub trait ClientPeer: Send + Sync + 'static {
    /// Sends `notifications/progress` for the request whose progress token is `token`.
    fn notify_progress(
        &self,
        token: Value,
        progress: Progress,
    ) -> BoxFuture<'static, Result<(), ClientRequestError>>;

    /// Sends `notifications/message` when `level` is at or above the level the client set;
    /// `logger` names the source.
    fn log(
        &self,
        level: LogLevel,
        logger: Option<String>,
        data: Value,
    ) -> BoxFuture<'static, Result<(), ClientRequestError>>;

    /// Sends `sampling/createMessage` and waits for the client's answer.
    fn create_message(
        &self,
        request: SamplingRequest,
    ) -> BoxFuture<'static, Result<SamplingResult, ClientRequestError>>;

    /// Sends `elicitation/create` and waits for the client's answer.
    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> BoxFuture<'static, Result<ElicitationResult, ClientRequestError>>;
}

/// Why a request to the client failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientRequestError {
    /// The call was dispatched without a client to reach (outside an MCP session).
    #[error("no client to ask: the call was not made through a session with a client")]
    NoClient,
    /// The client did not declare the capability the request needs (`sampling`,
    /// `elicitation`).
    #[error("the client does not support {0}: it did not declare the capability")]
    Unsupported(&'static str),
    /// The request could not be sent as written (a field the protocol refuses).
    #[error("the request cannot be sent: {0}")]
    Invalid(String),
    /// The client answered with a JSON-RPC error.
    #[error("the client answered with error {code}: {message}")]
    Rejected {
        /// The JSON-RPC error code.
        code: i64,
        /// The client's message.
        message: String,
    },
    /// The session ended, or the answer could not be read.
    #[error("the client could not be reached: {0}")]
    Transport(String),
}

impl From<ClientRequestError> for ToolError {
    fn from(error: ClientRequestError) -> Self {
        ToolError::Internal(error.to_string())
    }
}

/// How far a call has got, for `notifications/progress`.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The progress so far; it increases with each notification.
    pub progress: f64,
    /// The total, when known.
    pub total: Option<f64>,
    /// A message for people.
    pub message: Option<String>,
}

impl Progress {
    /// `progress` out of `total`.
    pub fn of(progress: f64, total: f64) -> Self {
        Progress {
            progress,
            total: Some(total),
            message: None,
        }
    }

    /// The same progress with a message for people.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

/// The severity of a log message, as in syslog (RFC 5424) and MCP `logging/setLevel`, least
/// severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name on the wire (`"debug"`, …, `"emergency"`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// The level a wire name stands for.
    pub fn from_name(name: &str) -> Option<LogLevel> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == name)
    }
}

/// Who speaks in a sampled conversation or a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// The role's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One message of a conversation the client's model is asked to continue.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said: one block or several.
    pub content: Vec<Content>,
}

impl SamplingMessage {
    /// A user message of one text block.
    pub fn user(text: impl Into<String>) -> Self {
        SamplingMessage {
            role: Role::User,
            content: vec![Content::text(text)],
        }
    }
}

/// A `sampling/createMessage` request: a conversation for the client's model to continue.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the model may produce.
    pub max_tokens: u32,
    /// A system prompt the client may use.
    pub system_prompt: Option<String>,
    /// The sampling temperature.
    pub temperature: Option<f32>,
    /// Sequences that stop the generation.
    pub stop_sequences: Vec<String>,
    /// `modelPreferences` as the protocol defines them (hints, cost, speed, intelligence).
    pub model_preferences: Option<Value>,
    /// Provider-specific metadata passed through.
    pub metadata: Option<Value>,
}

impl SamplingRequest {
    /// A request of one user message and a token limit.
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u32) -> Self {
        SamplingRequest {
            messages,
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: Vec::new(),
            model_preferences: None,
            metadata: None,
        }
    }
}

/// The client's answer to a [`SamplingRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingResult {
    /// Who speaks (the assistant, normally).
    pub role: Role,
    /// The generated content.
    pub content: Vec<Content>,
    /// The model that generated it.
    pub model: String,
    /// Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, …).
    pub stop_reason: Option<String>,
}

impl SamplingResult {
    /// The text of the generated content, blocks joined by newlines.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .map(Content::as_text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// An `elicitation/create` request: a message for the user and the form to fill in.
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitationRequest {
    /// What the user is asked, and why.
    pub message: String,
    /// The form, a JSON Schema object of primitive properties (strings, numbers, integers,
    /// booleans, enums and lists of enum values), as the protocol allows.
    pub requested_schema: Value,
}

impl ElicitationRequest {
    /// A request with a message and the schema of the requested values.
    pub fn new(message: impl Into<String>, requested_schema: Value) -> Self {
        ElicitationRequest {
            message: message.into(),
            requested_schema,
        }
    }
}

/// What the user did with an [`ElicitationRequest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElicitationAction {
    /// Submitted the form.
    Accept,
    /// Explicitly declined.
    Decline,
    /// Dismissed it without choosing.
    Cancel,
}

impl ElicitationAction {
    /// The action's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ElicitationAction::Accept => "accept",
            ElicitationAction::Decline => "decline",
            ElicitationAction::Cancel => "cancel",
        }
    }
}

/// The client's answer to an [`ElicitationRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitationResult {
    /// What the user did.
    pub action: ElicitationAction,
    /// The submitted values (with [`ElicitationAction::Accept`]).
    pub content: Option<Map<String, Value>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use serde_json::json;

    #[test]
    fn without_a_client_progress_and_logs_are_dropped_and_requests_fail() {
        let ctx = CallContext {
            meta: json!({"progressToken": 7, "note": "x"})
                .as_object()
                .cloned(),
            ..CallContext::default()
        };
        assert_eq!(ctx.progress_token(), Some(&json!(7)));
        assert_eq!(ctx.meta().and_then(|m| m.get("note")), Some(&json!("x")));
        assert_eq!(block_on(ctx.progress(Progress::of(1.0, 2.0))), Ok(()));
        assert_eq!(block_on(ctx.log(LogLevel::Error, "lost")), Ok(()));
        let sampled = block_on(
            ctx.create_message(SamplingRequest::new(vec![SamplingMessage::user("hi")], 10)),
        );
        assert_eq!(sampled, Err(ClientRequestError::NoClient));
        let error: ToolError = ClientRequestError::Unsupported("sampling").into();
        assert_eq!(
            error,
            ToolError::internal(
                "the client does not support sampling: it did not declare the capability"
            )
        );
    }

    #[test]
    fn log_levels_read_and_order_as_on_the_wire() {
        assert!(LogLevel::Debug < LogLevel::Emergency);
        for level in LogLevel::ALL {
            assert_eq!(LogLevel::from_name(level.as_str()), Some(level));
        }
        assert_eq!(LogLevel::from_name("loud"), None);
    }
}
