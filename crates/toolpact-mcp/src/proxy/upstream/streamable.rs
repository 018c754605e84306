//! A Streamable HTTP upstream, bridged to the newline-delimited JSON the relay reads and writes
//! through rmcp's HTTP client transport: every answer held to the proxy's message size limit,
//! requests sent without waiting for the answers before them, and a request whose answer could
//! not be had answered with an error that says why.

use crate::client::{http_endpoint, transport_failure};
use crate::error::ClientError;
use crate::proxy::wire::{Frame, LineReader, envelope, error_response};
use futures::{FutureExt, StreamExt};
use http::{HeaderName, HeaderValue};
use rmcp::model::{
    ClientJsonRpcMessage, RequestId, ServerJsonRpcMessage, ServerNotification, ServerRequest,
};
use rmcp::transport::Transport;
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpClientTransport, StreamableHttpError,
    StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::io::{AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};

/// How much the bridge holds in each direction before it waits.
const BRIDGE_BUFFER: usize = 256 * 1024;

/// How many messages may be on their way to the upstream at once before the bridge stops
/// reading more from the relay. A request answered in JSON is on its way until the whole answer
/// has come.
const MAX_SENDS: usize = 256;

/// How many reasons for broken answers are kept at most, waiting for their request's error.
const MAX_NOTES: usize = 1024;

/// JSON-RPC's invalid request: a message rmcp cannot send.
const INVALID_REQUEST: i32 = -32600;

/// JSON-RPC's internal error: an answer that could not be had.
const INTERNAL_ERROR: i32 = -32603;

/// The member of `error.data` by which rmcp marks the error it makes up for a request whose SSE
/// answer ended before the response (its `ErrorData::transport_closed`, which says only that).
const TRANSPORT_CLOSED: &str = "io.modelcontextprotocol/transportClosed";

/// What the client is told when the connection broke off in the middle of an answer.
const CUT_OFF: &str = "the upstream server closed the connection before its answer was complete";

/// What the client is told when an SSE answer ended, without an error, before the response.
const NO_RESPONSE: &str = "the upstream server ended its answer without the response";

/// Reaches the endpoint at `url` and bridges it to a pipe whose other end the relay reads and
/// writes.
pub(super) fn open(
    url: &str,
    headers: &[(String, String)],
    bearer_token: Option<&str>,
    max_message_bytes: usize,
) -> Result<(ReadHalf<DuplexStream>, WriteHalf<DuplexStream>), ClientError> {
    let (client, config) = http_endpoint(url, headers, bearer_token)?;
    // rmcp stops reading a JSON answer, or an SSE event, at a limit of its own (16 MiB by
    // default); at the proxy's limit instead, a larger answer is never held whole, and one the
    // relay would take is never refused.
    let config = config
        .max_json_response_size(max_message_bytes)
        .max_sse_event_size(max_message_bytes);
    let client = Watched {
        client,
        max: max_message_bytes,
        broken: Broken::default(),
    };
    let broken = client.broken.clone();
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let (proxy_side, bridge_side) = tokio::io::duplex(BRIDGE_BUFFER);
    tokio::spawn(bridge(transport, bridge_side, max_message_bytes, broken));
    Ok(tokio::io::split(proxy_side))
}

/// Carries messages between newline-delimited JSON on `side` and rmcp's transport, until either
/// end closes.
async fn bridge(
    mut transport: StreamableHttpClientTransport<Watched>,
    side: DuplexStream,
    max: usize,
    broken: Broken,
) {
    let (read, mut write) = tokio::io::split(side);
    // `LineReader::next` holds the part of a line read so far: a stream keeps the reading in
    // progress when the select below takes another branch.
    let lines = futures::stream::unfold(LineReader::new(read, max), |mut lines| async move {
        lines.next().await.map(|frame| (frame, lines))
    });
    let mut lines = std::pin::pin!(lines);
    // A send resolves once rmcp has the server's answer to the POST: for a request answered in
    // JSON, the whole answer. The sends run side by side, so that a request the server holds
    // does not hold the requests after it, nor the cancellation that ends it.
    let mut sends = futures::stream::FuturesUnordered::new();
    loop {
        let out = tokio::select! {
            frame = lines.next(), if sends.len() < MAX_SENDS => match frame {
                Some(Frame::Line(line)) if line.trim_ascii().is_empty() => None,
                Some(Frame::Line(line)) => match serde_json::from_slice(line.trim_ascii()) {
                    Ok(message) => {
                        let id = request_id(&message);
                        let mut send = Box::pin(transport.send(message));
                        // rmcp's worker takes messages in the order their sends are first
                        // polled: this one now, so that the server gets them in the order
                        // the relay wrote them.
                        match (&mut send).now_or_never() {
                            Some(result) => refusal(id, result, max),
                            None => {
                                sends.push(async move { (id, send.await) });
                                None
                            }
                        }
                    }
                    Err(e) => unsendable(&line, &e),
                },
                Some(Frame::Overlong { bytes, .. }) => {
                    tracing::warn!("dropped a message of {bytes} bytes for the upstream server");
                    None
                }
                None => break,
            },
            Some((id, result)) = sends.next(), if !sends.is_empty() => refusal(id, result, max),
            message = transport.receive() => match message {
                Some(message) => answer_line(message, &broken),
                None => break,
            },
        };
        if let Some(out) = out
            && write.write_all(&out).await.is_err()
        {
            break;
        }
    }
    let _ = transport.close().await;
    let _ = write.shutdown().await;
}

fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

/// The id as JSON text, as the relay's messages carry it.
fn id_text(id: &RequestId) -> String {
    serde_json::to_string(id).unwrap_or_else(|_| "null".to_owned())
}

/// The error that answers request `id` when its POST failed; `None` when it did not, or when
/// what failed was not a request.
fn refusal(
    id: Option<RequestId>,
    result: Result<(), StreamableHttpError<reqwest::Error>>,
    max: usize,
) -> Option<Vec<u8>> {
    let error = result.err()?;
    let text = match &error {
        StreamableHttpError::ResponseBodyTooLarge { .. } => over_the_limit(max),
        StreamableHttpError::Client(e) if is_cut_off(e) => CUT_OFF.to_owned(),
        other => format!(
            "the HTTP request to the upstream server failed: {}",
            transport_failure(other)
        ),
    };
    tracing::warn!("{text}");
    Some(error_response(&id_text(&id?), INTERNAL_ERROR, &text))
}

fn over_the_limit(max: usize) -> String {
    format!(
        "the upstream server's answer is over toolpact proxy's limit of {max} bytes; it was dropped"
    )
}

/// Whether the connection closed before the answer was all there: in its body, or before it.
fn is_cut_off(error: &reqwest::Error) -> bool {
    let incomplete =
        std::iter::successors(Some(error as &(dyn std::error::Error + 'static)), |e| {
            e.source()
        })
        .filter_map(|e| e.downcast_ref::<hyper::Error>())
        .any(hyper::Error::is_incomplete_message);
    error.is_body() || error.is_decode() || incomplete
}

/// A line rmcp's model cannot read: a request gets an error (it would wait for an answer
/// otherwise), anything else is dropped.
fn unsendable(line: &[u8], error: &serde_json::Error) -> Option<Vec<u8>> {
    let text = format!("toolpact proxy cannot send this message over HTTP: {error}");
    tracing::warn!("{text}");
    let request = envelope(line.trim_ascii()).filter(|e| e.method.is_some())?;
    Some(error_response(request.id?.get(), INVALID_REQUEST, &text))
}

/// A message from the upstream as a line for the relay. The error rmcp makes up for a request
/// whose SSE answer broke off says what happened instead.
fn answer_line(mut message: ServerJsonRpcMessage, broken: &Broken) -> Option<Vec<u8>> {
    let (id, closed) = match &message {
        ServerJsonRpcMessage::Response(response) => (Some(&response.id), false),
        ServerJsonRpcMessage::Error(error) => (
            error.id.as_ref(),
            error
                .error
                .data
                .as_ref()
                .is_some_and(|data| data.get(TRANSPORT_CLOSED).is_some()),
        ),
        _ => (None, false),
    };
    let why = id.and_then(|id| broken.take(id));
    if let (Some(id), true) = (id, closed) {
        let text = why.unwrap_or_else(|| NO_RESPONSE.to_owned());
        return Some(error_response(&id_text(id), INTERNAL_ERROR, &text));
    }
    restore_method(&mut message);
    let mut line = serde_json::to_vec(&message).ok()?;
    line.push(b'\n');
    Some(line)
}

/// Why the SSE answers to requests broke off, by request, until rmcp's error for the request
/// comes.
#[derive(Clone, Default)]
struct Broken(Arc<Mutex<HashMap<RequestId, String>>>);

impl Broken {
    fn note(&self, id: RequestId, why: String) {
        let mut noted = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // A note no error of rmcp's comes to take (the stream broke after the response, or the
        // request was cancelled) would stay for the session: the notes are bounded, and one
        // lost only leaves the plainer message.
        if noted.len() >= MAX_NOTES {
            noted.clear();
        }
        noted.insert(id, why);
    }

    fn take(&self, id: &RequestId) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id)
    }
}

/// rmcp's reqwest client, noting why the SSE answer to a request broke off: rmcp answers such a
/// request with an error that does not say (see [`TRANSPORT_CLOSED`]).
#[derive(Clone)]
struct Watched {
    client: reqwest::Client,
    max: usize,
    broken: Broken,
}

impl Watched {
    fn watch(&self, events: BoxedSseResponse, id: RequestId) -> BoxedSseResponse {
        let (broken, max) = (self.broken.clone(), self.max);
        events
            .inspect(move |event| {
                if let Err(error) = event {
                    broken.note(id.clone(), why_broken(error, max));
                }
            })
            .boxed()
    }
}

/// What the client is told about an SSE answer that ended in `error`. rmcp keeps the error it
/// raises for an event over the limit to itself; its text is all there is to tell it by.
fn why_broken(error: &SseError, max: usize) -> String {
    match error {
        SseError::Body(cause) if cause.to_string().contains("exceeded the maximum size") => {
            over_the_limit(max)
        }
        SseError::Body(_) => CUT_OFF.to_owned(),
        other => format!("the upstream server's answer is not a valid event stream: {other}"),
    }
}

// Every method goes to reqwest's own, with the proxy's limits: the trait's defaults for the
// methods left out call those written here.
impl StreamableHttpClient for Watched {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_json_response_size = self.max;
        limits.max_sse_event_size = self.max;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let id = request_id(&message);
        let response = self
            .client
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await?;
        Ok(match (response, id) {
            (StreamableHttpPostResponse::Sse(events, session), Some(id)) => {
                StreamableHttpPostResponse::Sse(as_is(self.watch(events, id)), session)
            }
            (StreamableHttpPostResponse::Sse(events, session), None) => {
                StreamableHttpPostResponse::Sse(as_is(events), session)
            }
            (response, _) => response,
        })
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.client
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxedSseResponse, StreamableHttpError<Self::Error>> {
        self.client
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                self.max,
            )
            .await
            .map(as_is)
    }
}

/// The prefix that makes rmcp read a request or notification of the upstream's as one of its
/// own kind it does not know (`CustomRequest`, `CustomNotification`), whose parameters it keeps
/// as they are: its models of the others rewrite them (a sampling request's temperature held
/// as an `f32`, `0.7` passed on as `0.699999988079071`; an elicitation without a `mode` given
/// `form`; a progress of `0` passed on as `0.0`). [`restore_method`] takes it off again. It
/// holds a number drawn for the process, so that no method a server sends can be taken for one
/// renamed here.
fn as_is_prefix() -> &'static str {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PREFIX.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let drawn = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        format!("toolpact-as-is-{drawn:016x}/")
    })
}

/// The upstream's messages in `events` with their methods renamed (see [`as_is_prefix`]).
fn as_is(events: BoxedSseResponse) -> BoxedSseResponse {
    events
        .map(|event| {
            event.map(|mut sse| {
                if let Some(renamed) = sse.data.as_deref().and_then(renamed) {
                    sse.data = Some(renamed);
                }
                sse
            })
        })
        .boxed()
}

/// A request or notification written again with its method under [`as_is_prefix`], every other
/// member as it was; `None` for anything else: answers, batches, a message with members
/// JSON-RPC does not have, what is not JSON. Those go to rmcp as they came, to be read or
/// refused by its own rules.
fn renamed(data: &str) -> Option<String> {
    if !data.trim_start().starts_with('{') {
        return None;
    }
    let members: HashMap<String, &RawValue> = serde_json::from_str(data).ok()?;
    if !members
        .keys()
        .all(|key| matches!(key.as_str(), "jsonrpc" | "id" | "method" | "params"))
    {
        return None;
    }
    let method: String = serde_json::from_str(members.get("method")?.get()).ok()?;
    let method = serde_json::to_string(&format!("{}{method}", as_is_prefix())).ok()?;
    let mut out = String::with_capacity(data.len() + 40);
    out.push('{');
    out.push_str(r#""method":"#);
    out.push_str(&method);
    for key in ["jsonrpc", "id", "params"] {
        if let Some(value) = members.get(key) {
            out.push_str(&format!(r#","{key}":"#));
            out.push_str(value.get());
        }
    }
    out.push('}');
    Some(out)
}

/// The method of a message renamed by [`as_is`], as the upstream wrote it.
fn restore_method(message: &mut ServerJsonRpcMessage) {
    let method = match message {
        ServerJsonRpcMessage::Request(request) => match &mut request.request {
            ServerRequest::CustomRequest(custom) => &mut custom.method,
            _ => return,
        },
        ServerJsonRpcMessage::Notification(notification) => match &mut notification.notification {
            ServerNotification::CustomNotification(custom) => &mut custom.method,
            _ => return,
        },
        _ => return,
    };
    if let Some(original) = method.strip_prefix(as_is_prefix()) {
        *method = original.to_owned();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// `data` renamed, then read by rmcp and named back, as the relay gets it.
    fn through(data: &str) -> Value {
        let data = renamed(data).unwrap_or_else(|| data.to_owned());
        let mut message: ServerJsonRpcMessage = serde_json::from_str(&data).unwrap();
        restore_method(&mut message);
        serde_json::to_value(&message).unwrap()
    }

    #[test]
    fn requests_and_notifications_keep_their_parameters_as_written() {
        let sampling = json!({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage",
            "params": {"messages": [], "maxTokens": 5, "temperature": 0.7}});
        assert_eq!(through(&sampling.to_string()), sampling);
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "p", "progress": 0}});
        let line = serde_json::to_string(&through(&progress.to_string())).unwrap();
        assert!(line.contains(r#""progress":0"#), "{line}");
        // Without rmcp's model in between: a method that carries the prefix already keeps it.
        let own = format!("{}x", as_is_prefix());
        let odd = json!({"jsonrpc": "2.0", "method": own});
        assert_eq!(through(&odd.to_string())["method"], own);
    }

    #[test]
    fn what_is_not_a_plain_request_or_notification_is_left_to_rmcp() {
        for data in [
            // Answers, and an answer with a method (rmcp refuses it).
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","result":{}}"#,
            // An array, which a derived struct would have read.
            r#"[7,"sampling/createMessage",{}]"#,
            // A method that is not a string, no method, not JSON.
            r#"{"jsonrpc":"2.0","method":7}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            "not json",
            "",
        ] {
            assert_eq!(renamed(data), None, "{data}");
        }
    }

    #[test]
    fn a_null_id_and_a_missing_version_stay_for_rmcp_to_judge() {
        let renamed = renamed(r#"{"id":null,"method":"ping","params":null}"#).unwrap();
        let value: Value = serde_json::from_str(&renamed).unwrap();
        assert_eq!(value["id"], Value::Null);
        assert!(value.get("id").is_some(), "{renamed}");
        assert!(value.get("jsonrpc").is_none(), "{renamed}");
        assert_eq!(value["params"], Value::Null);
    }
}
