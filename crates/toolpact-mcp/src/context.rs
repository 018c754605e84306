//! The client as a running handler reaches it: [`SessionClient`] implements toolpact's
//! [`ClientPeer`] over rmcp's peer of one session, and [`Session`] holds what a session
//! remembers between requests (the log level the client set, the resources it subscribed to).
//!
//! Over Streamable HTTP with a session, the notifications a call sends (progress, log
//! messages) go to the SSE stream that answers the call's `POST`, as the transport asks of
//! messages related to a request: rmcp's session routes progress there by its token, but every
//! other notification to the standalone `GET` stream, so they take a [`RequestStream`] instead.
//!
//! rmcp's request and result types are reached through their JSON form, so toolpact's types
//! stay free of rmcp and a field rmcp adds does not break the conversion.

// Sampling, logging and `resources/subscribe` are deprecated in rmcp by SEP-2577, which drops
// them from the 2026-07-28 revision; the revisions before it, which this crate serves too,
// define them, and clients of those revisions use them.
#![allow(deprecated)]

use futures::channel::mpsc;
use futures::future::BoxFuture;
use futures::task::AtomicWaker;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequest, ElicitRequest, ErrorData, ServerNotification,
    ServerRequest,
};
use rmcp::service::{Peer, ServiceError};
use rmcp::{RoleServer, model::Notification};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Context;
use toolpact::{
    ClientPeer, ClientRequestError, Content, ElicitationAction, ElicitationRequest,
    ElicitationResult, LogLevel, Progress, Role, SamplingRequest, SamplingResult,
};

/// What one session remembers between requests.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// The least severe level the client wants (`logging/setLevel`); every level until it sets
    /// one.
    log_level: Mutex<Option<LogLevel>>,
    /// The URIs the client subscribed to (`resources/subscribe`).
    subscriptions: Mutex<BTreeSet<String>>,
}

impl Session {
    /// Records the level the client set.
    pub(crate) fn set_log_level(&self, level: LogLevel) {
        if let Ok(mut current) = self.log_level.lock() {
            *current = Some(level);
        }
    }

    /// Whether a message at `level` goes to the client.
    pub(crate) fn logs(&self, level: LogLevel) -> bool {
        self.log_level
            .lock()
            .map_or(true, |current| current.is_none_or(|min| level >= min))
    }

    /// Adds (`true`) or removes (`false`) a subscription.
    pub(crate) fn subscribe(&self, uri: &str, on: bool) {
        if let Ok(mut subscriptions) = self.subscriptions.lock() {
            if on {
                subscriptions.insert(uri.to_owned());
            } else {
                subscriptions.remove(uri);
            }
        }
    }

    /// Whether the client subscribed to `uri`.
    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .is_ok_and(|subscriptions| subscriptions.contains(uri))
    }
}

/// How many notifications of a call may wait for its SSE stream before the handler that
/// sends them waits too.
pub(crate) const REQUEST_STREAM_CAPACITY: usize = 32;

/// The SSE stream answering one HTTP request, found in the request's extensions: what is sent
/// here is written to that stream, ahead of the messages rmcp's session writes to it, so that a
/// notification reaches the client before the answer that follows it.
///
/// The channel to the stream is made by the first notification of the call: most calls send
/// none, and a channel costs several allocations, which were a noticeable part of a call's cost.
#[derive(Debug, Clone, Default)]
pub(crate) struct RequestStream(Arc<CallStream>);

#[derive(Debug, Default)]
struct CallStream {
    slot: Mutex<Slot>,
    /// Whether the channel is made (and its receiver waits in the slot for the stream).
    made: AtomicBool,
    /// The stream, woken when the channel is made after the stream looked for it.
    reader: AtomicWaker,
}

#[derive(Debug, Default)]
struct Slot {
    sender: Option<mpsc::Sender<ServerNotification>>,
    /// The receiving end until the stream takes it.
    receiver: Option<mpsc::Receiver<ServerNotification>>,
    /// The stream is gone (the client left it, to resume it later, say).
    closed: bool,
}

impl RequestStream {
    /// A sender to the stream, the channel made by the first call; `None` once the stream is
    /// gone.
    fn sender(&self) -> Option<mpsc::Sender<ServerNotification>> {
        let mut slot = self.0.slot.lock().ok()?;
        if slot.closed {
            return None;
        }
        let sender = match &slot.sender {
            Some(sender) => sender.clone(),
            None => {
                let (sender, receiver) = mpsc::channel(REQUEST_STREAM_CAPACITY);
                slot.sender = Some(sender.clone());
                slot.receiver = Some(receiver);
                self.0.made.store(true, Ordering::Release);
                drop(slot);
                self.0.reader.wake();
                sender
            }
        };
        Some(sender)
    }

    /// For the stream: the receiving end once the call's first notification made it (taken
    /// once); until then the stream is woken when it is made.
    pub(crate) fn poll_receiver(
        &self,
        cx: &mut Context<'_>,
    ) -> Option<mpsc::Receiver<ServerNotification>> {
        self.0.reader.register(cx.waker());
        if !self.0.made.load(Ordering::Acquire) {
            return None;
        }
        self.0.slot.lock().ok()?.receiver.take()
    }

    /// For the stream, when it is dropped: what is sent from now on goes through the session.
    pub(crate) fn close(&self) {
        if let Ok(mut slot) = self.0.slot.lock() {
            slot.closed = true;
            slot.sender = None;
            slot.receiver = None;
        }
    }
}

/// The client of one session, for the handlers of the calls it makes.
pub(crate) struct SessionClient {
    peer: Peer<RoleServer>,
    session: Arc<Session>,
    stream: Option<RequestStream>,
}

impl SessionClient {
    /// The client as the handler of one request reaches it; `stream` is the SSE stream of the
    /// HTTP request that carried the call, if there is one besides rmcp's own.
    pub(crate) fn new(
        peer: Peer<RoleServer>,
        session: Arc<Session>,
        stream: Option<RequestStream>,
    ) -> Self {
        SessionClient {
            peer,
            session,
            stream,
        }
    }

    /// Sends a notification about the call: on the call's own stream while it is open, else
    /// through the session (which routes progress to the call's stream, or keeps it for a
    /// client that resumes the stream, and everything else to the standalone stream).
    fn notify(
        &self,
        notification: ServerNotification,
    ) -> BoxFuture<'static, Result<(), ClientRequestError>> {
        let peer = self.peer.clone();
        let stream = self.stream.as_ref().and_then(RequestStream::sender);
        Box::pin(async move {
            let notification = match stream {
                Some(mut stream) => {
                    // Waiting for room first, `try_send` then either takes the notification or
                    // gives it back: the client left the stream (to resume it later, say), and
                    // the session keeps what it sends for a client that comes back.
                    let _ = futures::future::poll_fn(|cx| stream.poll_ready(cx)).await;
                    match stream.try_send(notification) {
                        Ok(()) => return Ok(()),
                        Err(refused) => refused.into_inner(),
                    }
                }
                None => notification,
            };
            peer.send_notification(notification)
                .await
                .map_err(service_error)
        })
    }

    /// The capabilities the client declared, when it initialized this session.
    fn capabilities(&self) -> Option<ClientCapabilities> {
        self.peer.peer_info().map(|info| info.capabilities.clone())
    }
}

/// Reads a value of rmcp's wire model from its JSON form.
fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ClientRequestError> {
    serde_json::from_value(value).map_err(|e| ClientRequestError::Invalid(e.to_string()))
}

fn service_error(error: ServiceError) -> ClientRequestError {
    match error {
        ServiceError::McpError(ErrorData { code, message, .. }) => ClientRequestError::Rejected {
            code: i64::from(code.0),
            message: message.into_owned(),
        },
        other => ClientRequestError::Transport(other.to_string()),
    }
}

fn content_json(content: &[Content]) -> Value {
    match content {
        [one] => json!(one),
        many => json!(many),
    }
}

/// Content blocks from a value that is one block or an array of them (both are allowed in
/// sampling since 2025-11-25).
fn content_from_json(value: Value) -> Result<Vec<Content>, ClientRequestError> {
    match value {
        Value::Array(items) => items.into_iter().map(from_json).collect(),
        one => Ok(vec![from_json(one)?]),
    }
}

fn role_from_json(value: Option<&Value>) -> Role {
    match value.and_then(Value::as_str) {
        Some("user") => Role::User,
        _ => Role::Assistant,
    }
}

impl ClientPeer for SessionClient {
    fn notify_progress(
        &self,
        token: Value,
        progress: Progress,
    ) -> BoxFuture<'static, Result<(), ClientRequestError>> {
        let mut params = Map::new();
        params.insert("progressToken".into(), token);
        params.insert("progress".into(), json!(progress.progress));
        if let Some(total) = progress.total {
            params.insert("total".into(), json!(total));
        }
        if let Some(message) = progress.message {
            params.insert("message".into(), json!(message));
        }
        match from_json(Value::Object(params)) {
            Ok(params) => self.notify(ServerNotification::ProgressNotification(Notification::new(
                params,
            ))),
            Err(e) => Box::pin(async { Err(e) }),
        }
    }

    fn log(
        &self,
        level: LogLevel,
        logger: Option<String>,
        data: Value,
    ) -> BoxFuture<'static, Result<(), ClientRequestError>> {
        if !self.session.logs(level) {
            return Box::pin(async { Ok(()) });
        }
        let mut params = json!({"level": level.as_str(), "data": data});
        if let Some(logger) = logger {
            params["logger"] = json!(logger);
        }
        match from_json(params) {
            Ok(params) => self.notify(ServerNotification::LoggingMessageNotification(
                Notification::new(params),
            )),
            Err(e) => Box::pin(async { Err(e) }),
        }
    }

    fn create_message(
        &self,
        request: SamplingRequest,
    ) -> BoxFuture<'static, Result<SamplingResult, ClientRequestError>> {
        let supported = self.capabilities().is_none_or(|c| c.sampling.is_some());
        let peer = self.peer.clone();
        Box::pin(async move {
            if !supported {
                return Err(ClientRequestError::Unsupported("sampling"));
            }
            let messages: Vec<Value> = request
                .messages
                .iter()
                .map(|m| json!({"role": m.role.as_str(), "content": content_json(&m.content)}))
                .collect();
            let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
            if let Some(system) = request.system_prompt {
                params["systemPrompt"] = json!(system);
            }
            if let Some(temperature) = request.temperature {
                params["temperature"] = json!(temperature);
            }
            if !request.stop_sequences.is_empty() {
                params["stopSequences"] = json!(request.stop_sequences);
            }
            if let Some(preferences) = request.model_preferences {
                params["modelPreferences"] = preferences;
            }
            if let Some(metadata) = request.metadata {
                params["metadata"] = metadata;
            }
            let request =
                ServerRequest::CreateMessageRequest(CreateMessageRequest::new(from_json(params)?));
            let answer = peer.send_request(request).await.map_err(service_error)?;
            let mut answer = serde_json::to_value(answer)
                .map_err(|e| ClientRequestError::Transport(e.to_string()))?;
            let content = answer.get_mut("content").map(Value::take).ok_or_else(|| {
                ClientRequestError::Transport("the sampling result has no content".into())
            })?;
            Ok(SamplingResult {
                role: role_from_json(answer.get("role")),
                content: content_from_json(content)?,
                model: answer
                    .get("model")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                stop_reason: answer
                    .get("stopReason")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
        })
    }

    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> BoxFuture<'static, Result<ElicitationResult, ClientRequestError>> {
        let supported = self.capabilities().is_none_or(|c| c.elicitation.is_some());
        let peer = self.peer.clone();
        Box::pin(async move {
            if !supported {
                return Err(ClientRequestError::Unsupported("elicitation"));
            }
            let params = json!({
                "mode": "form",
                "message": request.message,
                "requestedSchema": request.requested_schema,
            });
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(from_json(params)?));
            let answer = peer.send_request(request).await.map_err(service_error)?;
            let answer = serde_json::to_value(answer)
                .map_err(|e| ClientRequestError::Transport(e.to_string()))?;
            let action = match answer.get("action").and_then(Value::as_str) {
                Some("accept") => ElicitationAction::Accept,
                Some("decline") => ElicitationAction::Decline,
                Some("cancel") => ElicitationAction::Cancel,
                other => {
                    return Err(ClientRequestError::Transport(format!(
                        "the elicitation result has no known action: {other:?}"
                    )));
                }
            };
            Ok(ElicitationResult {
                action,
                content: answer.get("content").and_then(Value::as_object).cloned(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_level_lets_through_what_is_at_least_as_severe() {
        let session = Session::default();
        assert!(
            session.logs(LogLevel::Debug),
            "everything before a level is set"
        );
        session.set_log_level(LogLevel::Warning);
        assert!(!session.logs(LogLevel::Info));
        assert!(session.logs(LogLevel::Warning));
        assert!(session.logs(LogLevel::Emergency));
    }

    /// A waker that counts how often it is woken.
    struct Count(std::sync::atomic::AtomicUsize);

    impl futures::task::ArcWake for Count {
        fn wake_by_ref(count: &Arc<Self>) {
            count.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn progress(n: f64) -> ServerNotification {
        let params = json!({"progressToken": 1, "progress": n});
        ServerNotification::ProgressNotification(Notification::new(from_json(params).unwrap()))
    }

    #[test]
    fn a_call_stream_gets_its_channel_from_the_first_notification() {
        let count = Arc::new(Count(std::sync::atomic::AtomicUsize::new(0)));
        let waker = futures::task::waker(Arc::clone(&count));
        let mut cx = Context::from_waker(&waker);
        let stream = RequestStream::default();
        assert!(stream.poll_receiver(&mut cx).is_none(), "no channel yet");
        let mut sender = stream.sender().unwrap();
        assert_eq!(
            count.0.load(Ordering::SeqCst),
            1,
            "the stream is woken to take it"
        );
        sender.try_send(progress(1.0)).unwrap();
        let mut receiver = stream.poll_receiver(&mut cx).unwrap();
        assert!(stream.poll_receiver(&mut cx).is_none(), "taken once");
        stream.sender().unwrap().try_send(progress(2.0)).unwrap();
        assert_eq!(count.0.load(Ordering::SeqCst), 1, "made once");
        for n in [1.0, 2.0] {
            let received = receiver.try_next().unwrap().map(|n| json!(n));
            assert_eq!(received, Some(json!(progress(n))));
        }
    }

    #[test]
    fn a_closed_call_stream_takes_no_more_notifications() {
        let stream = RequestStream::default();
        let mut before = stream.sender().unwrap();
        stream.close();
        assert!(stream.sender().is_none(), "nothing made once it is gone");
        // A sender taken before the stream went finds it gone, and the session gets the
        // notification: a handler never waits for a stream nobody reads.
        assert!(
            before
                .try_send(progress(1.0))
                .unwrap_err()
                .is_disconnected()
        );
    }

    #[test]
    fn subscriptions_are_added_and_removed() {
        let session = Session::default();
        session.subscribe("test://a", true);
        assert!(session.is_subscribed("test://a"));
        session.subscribe("test://a", false);
        assert!(!session.is_subscribed("test://a"));
    }
}
