//! Newline-delimited JSON-RPC over a reader and a writer, the framing of MCP's stdio transport,
//! for both sides: each line is parsed once, straight into rmcp's message type, and each
//! message goes out in one `write` (the JSON and its `\n` together).
//!
//! rmcp's own framing skips a line that is not JSON without a word, which leaves the other side
//! waiting for an answer that never comes. Here a server answers such a line with a JSON-RPC
//! parse error (`-32700`, id `null`), as JSON-RPC 2.0 asks, and a client keeps the first such
//! lines so that its error messages can say the server writes something else than protocol
//! messages to its standard output.

use rmcp::model::{CallToolRequest, ClientRequest, JsonRpcMessage, JsonRpcRequest};
use rmcp::service::{RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{RoleClient, RoleServer};
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The longest line read, in bytes; a longer one is dropped (and answered as not JSON).
const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The parse error a server sends for a line that is not JSON.
pub(crate) const PARSE_ERROR: &str = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}"#;

/// How many lines that are not JSON a client keeps for its messages.
const STRAY_LINES_KEPT: usize = 3;
/// The longest stray line kept, in characters.
const STRAY_LINE_CHARS: usize = 200;

/// Lines a server wrote that are not JSON-RPC messages: how many, and the first few.
#[derive(Debug, Default)]
pub(crate) struct StrayLines {
    inner: Mutex<(usize, Vec<String>)>,
}

impl StrayLines {
    pub(crate) fn note(&self, line: &[u8]) {
        if let Ok(mut inner) = self.inner.lock() {
            inner.0 += 1;
            if inner.1.len() < STRAY_LINES_KEPT {
                let text = String::from_utf8_lossy(line);
                inner.1.push(text.chars().take(STRAY_LINE_CHARS).collect());
            }
        }
    }

    /// What was seen, as a sentence for an error message; `None` when every line was JSON.
    pub(crate) fn describe(&self) -> Option<String> {
        let inner = self.inner.lock().ok()?;
        let (count, first) = (inner.0, &inner.1);
        if count == 0 {
            return None;
        }
        let quoted: Vec<String> = first.iter().map(|l| format!("{l:?}")).collect();
        Some(format!(
            "the server wrote {count} line{} to standard output that {} not JSON-RPC ({}{}); a stdio server must write only protocol messages there, and its logs to standard error",
            if count == 1 { "" } else { "s" },
            if count == 1 { "is" } else { "are" },
            quoted.join(", "),
            if count > first.len() { ", …" } else { "" },
        ))
    }
}

/// What happens to a line that is not a JSON-RPC message.
pub(crate) enum Stray {
    /// A server answers it with a parse error, or an invalid-request error for JSON that is
    /// not a JSON-RPC message.
    Answer,
    /// A client keeps it for its error messages.
    Note(Arc<StrayLines>),
}

/// What [`LineTransport::next_line`] read.
enum Line {
    /// A line, in `line`.
    Whole,
    /// A line longer than [`MAX_LINE_BYTES`], dropped.
    Overlong,
}

/// How one side reads a line into rmcp's message type.
///
/// rmcp's request and result types are untagged enums: a line is buffered, then read as each
/// kind of request in turn until one fits, and every kind that does not fit builds an error on
/// the way. A `tools/call` is the 14th kind a client can send, so a server read each call
/// thirteen times over before it found it. A server reads a line that is plainly a call (a
/// `method` of `tools/call`, an `id`, no `result` or `error`, none of them twice) as that
/// request directly, and any other line, or a call that does not read as one, as rmcp reads it:
/// the message is the same either way (a unit test holds the two to that).
pub(crate) trait Decode: ServiceRole {
    /// The message of one line of JSON.
    fn decode(text: &[u8]) -> serde_json::Result<RxJsonRpcMessage<Self>> {
        serde_json::from_slice(text)
    }
}

impl Decode for RoleClient {}

impl Decode for RoleServer {
    fn decode(text: &[u8]) -> serde_json::Result<RxJsonRpcMessage<Self>> {
        if serde_json::from_slice::<CallShape>(text).is_ok_and(|shape| shape.0)
            && let Ok(call) = serde_json::from_slice::<JsonRpcRequest<CallToolRequest>>(text)
        {
            return Ok(JsonRpcMessage::Request(JsonRpcRequest {
                jsonrpc: call.jsonrpc,
                id: call.id,
                request: ClientRequest::CallToolRequest(call.request),
            }));
        }
        serde_json::from_slice(text)
    }
}

/// Whether a JSON object is plainly a `tools/call` request, read from its keys alone: a
/// `method` of `tools/call`, an `id`, no `result` or `error`, and none of these four twice.
struct CallShape(bool);

/// The four keys that tell a JSON-RPC message's kind.
#[derive(Clone, Copy)]
enum ShapeKey {
    Method,
    Id,
    Result,
    Error,
    Other,
}

impl<'de> serde::Deserialize<'de> for ShapeKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Key;
        impl Visitor<'_> for Key {
            type Value = ShapeKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<ShapeKey, E> {
                Ok(match key {
                    "method" => ShapeKey::Method,
                    "id" => ShapeKey::Id,
                    "result" => ShapeKey::Result,
                    "error" => ShapeKey::Error,
                    _ => ShapeKey::Other,
                })
            }
        }
        deserializer.deserialize_str(Key)
    }
}

/// A `method` value: whether it is the string `tools/call` (any other string is `false`; a
/// value that is not a string fails, and the line is read as rmcp reads it).
struct IsToolCall(bool);

impl<'de> serde::Deserialize<'de> for IsToolCall {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Method;
        impl Visitor<'_> for Method {
            type Value = IsToolCall;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a method name")
            }
            fn visit_str<E: serde::de::Error>(self, method: &str) -> Result<IsToolCall, E> {
                Ok(IsToolCall(method == "tools/call"))
            }
        }
        deserializer.deserialize_str(Method)
    }
}

impl<'de> serde::Deserialize<'de> for CallShape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Shape;
        impl<'de> Visitor<'de> for Shape {
            type Value = CallShape;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC message")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CallShape, A::Error> {
                let mut seen = [0u8; 4];
                let mut tool_call = false;
                while let Some(key) = map.next_key::<ShapeKey>()? {
                    match key {
                        ShapeKey::Method => tool_call = map.next_value::<IsToolCall>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                    if let Some(count) = match key {
                        ShapeKey::Method => Some(&mut seen[0]),
                        ShapeKey::Id => Some(&mut seen[1]),
                        ShapeKey::Result => Some(&mut seen[2]),
                        ShapeKey::Error => Some(&mut seen[3]),
                        ShapeKey::Other => None,
                    } {
                        *count = count.saturating_add(1);
                    }
                }
                Ok(CallShape(tool_call && seen == [1, 1, 0, 0]))
            }
        }
        deserializer.deserialize_map(Shape)
    }
}

/// The transport: reads lines from `R`, writes lines to `W`.
pub(crate) struct LineTransport<Role, R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// Set while the rest of an overlong line is skipped.
    discarding: bool,
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    stray: Stray,
    _role: PhantomData<fn() -> Role>,
}

impl<Role, R, W> LineTransport<Role, R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    pub(crate) fn new(read: R, write: W, stray: Stray) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            stray,
            _role: PhantomData,
        }
    }

    /// Reads the next line into `self.line` (with its `\n`); `None` at the end of the input.
    /// A last line without its `\n` is a line, as `BufRead::lines` reads it: a client that
    /// writes its last message and closes its end is answered (or told that the message is not
    /// JSON). Cancel-safe: `receive` is polled in a `select!`, and a partial line stays in
    /// `self.line` for the next call.
    async fn next_line(&mut self) -> Option<Line> {
        loop {
            let (consumed, done) = {
                let available = match self.read.fill_buf().await {
                    Ok(available) => available,
                    Err(e) => {
                        tracing::warn!("cannot read the input: {e}");
                        return None;
                    }
                };
                if available.is_empty() {
                    return if std::mem::take(&mut self.discarding) {
                        tracing::warn!("dropped an input line longer than {MAX_LINE_BYTES} bytes");
                        Some(Line::Overlong)
                    } else if self.line.is_empty() {
                        None
                    } else {
                        Some(Line::Whole)
                    };
                }
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                if !self.discarding {
                    if self.line.len() + take > MAX_LINE_BYTES {
                        self.line.clear();
                        self.discarding = true;
                    } else {
                        self.line.extend_from_slice(&available[..take]);
                    }
                }
                (take, newline.is_some())
            };
            self.read.consume(consumed);
            if done {
                return Some(if std::mem::take(&mut self.discarding) {
                    tracing::warn!("dropped an input line longer than {MAX_LINE_BYTES} bytes");
                    Line::Overlong
                } else {
                    Line::Whole
                });
            }
        }
    }
}

/// Writes one line, with its `\n`, in one `write`, and flushes it.
async fn write_line<W: AsyncWrite + Unpin>(
    write: &tokio::sync::Mutex<Option<W>>,
    line: &[u8],
) -> std::io::Result<()> {
    let mut write = write.lock().await;
    match write.as_mut() {
        Some(write) => {
            write.write_all(line).await?;
            write.flush().await
        }
        None => Err(closed()),
    }
}

fn closed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotConnected, "the transport is closed")
}

/// A notification (a `method` and no `id`) is never answered, even when it is malformed.
fn is_notification(message: &Value) -> bool {
    message.get("method").is_some_and(Value::is_string) && message.get("id").is_none()
}

/// The answer to JSON that is not a JSON-RPC message: an invalid-request error with the
/// message's `id` when it has one a response can carry, else `null`, as JSON-RPC 2.0 asks.
fn invalid_request(message: &Value) -> String {
    let id = match message.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32600, "message": "Invalid request"},
    })
    .to_string()
}

impl<Role, R, W> Transport<Role> for LineTransport<Role, R, W>
where
    Role: Decode,
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<Role>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        async move {
            let mut line = serde_json::to_vec(&item)?;
            line.push(b'\n');
            write_line(&write, &line).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<Role>> {
        loop {
            let kind = self.next_line().await?;
            let line = std::mem::take(&mut self.line);
            let text = line.trim_ascii();
            let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
            let answer = match kind {
                Line::Overlong => Some(PARSE_ERROR.to_owned()),
                // An empty line is nothing at all.
                Line::Whole if text.is_empty() => None,
                Line::Whole => match Role::decode(text) {
                    Ok(message) => {
                        self.line = line;
                        self.line.clear();
                        return Some(message);
                    }
                    // JSON that is not a message rmcp reads (a type error can come before a
                    // syntax error further on, so the line is read again as any JSON).
                    Err(e) => match serde_json::from_slice::<Value>(text) {
                        Ok(value) if is_notification(&value) => {
                            tracing::debug!("ignored a notification rmcp does not know: {e}");
                            None
                        }
                        Ok(value) => Some(invalid_request(&value)),
                        Err(_) => Some(PARSE_ERROR.to_owned()),
                    },
                },
            };
            match (&self.stray, answer) {
                (_, None) => {}
                (Stray::Answer, Some(answer)) => {
                    tracing::warn!("answered an input line that is not a JSON-RPC message");
                    let mut answer = answer.into_bytes();
                    answer.push(b'\n');
                    if write_line(&self.write, &answer).await.is_err() {
                        return None;
                    }
                }
                (Stray::Note(stray), Some(_)) if text.is_empty() => {
                    stray.note(format!("(a line over {MAX_LINE_BYTES} bytes)").as_bytes());
                }
                (Stray::Note(stray), Some(_)) => stray.note(text),
            }
            self.line = line;
            self.line.clear();
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut write = self.write.lock().await;
        if let Some(mut write) = write.take() {
            let _ = write.shutdown().await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::RoleServer;
    use rmcp::model::{EmptyResult, RequestId, ServerJsonRpcMessage, ServerResult};
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// A writer that keeps each `write` call apart.
    #[derive(Clone, Default)]
    struct Writes(Arc<Mutex<Vec<Vec<u8>>>>);

    impl AsyncWrite for Writes {
        fn poll_write(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<std::io::Result<usize>> {
            self.0.lock().unwrap().push(buf.to_vec());
            Poll::Ready(Ok(buf.len()))
        }
        fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn each_message_is_one_write_and_stray_lines_are_answered() {
        let input: &[u8] = b"not json\n\n{\"jsonrpc\":\"2.0\",\"method\":\"x/unknown\"}\n[1]\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n";
        let writes = Writes::default();
        let mut transport =
            LineTransport::<RoleServer, _, _>::new(input, writes.clone(), Stray::Answer);
        let received = receive_all(&mut transport).await;
        // rmcp reads an unknown notification as a custom one; `[1]` is not a message.
        assert_eq!(received.len(), 2, "{received:?}");
        assert!(received[0].contains("x/unknown"), "{received:?}");
        assert!(received[1].contains("\"ping\""), "{received:?}");
        let reply = ServerJsonRpcMessage::response(
            ServerResult::EmptyResult(EmptyResult {}),
            RequestId::Number(7),
        );
        transport.send(reply).await.unwrap();
        let lines = writes.lines();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[0], format!("{PARSE_ERROR}\n"));
        assert!(
            lines[1].contains("-32600") && lines[1].ends_with('\n'),
            "{}",
            lines[1]
        );
        assert_eq!(lines[2], "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n");
    }

    impl Writes {
        /// Every `write` call so far, as text.
        fn lines(&self) -> Vec<String> {
            let writes = self.0.lock().unwrap();
            writes
                .iter()
                .map(|w| String::from_utf8(w.clone()).unwrap())
                .collect()
        }
    }

    /// Every message `transport` reads until its input ends, as JSON text.
    async fn receive_all<W>(transport: &mut LineTransport<RoleServer, &[u8], W>) -> Vec<String>
    where
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let mut received = Vec::new();
        while let Some(message) = transport.receive().await {
            received.push(serde_json::to_string(&message).unwrap());
        }
        received
    }

    /// Every line a transport reads from `input` (as JSON text), and every line it writes.
    async fn read_all(input: &'static [u8]) -> (Vec<String>, Vec<String>) {
        let writes = Writes::default();
        let mut transport =
            LineTransport::<RoleServer, _, _>::new(input, writes.clone(), Stray::Answer);
        (receive_all(&mut transport).await, writes.lines())
    }

    #[tokio::test]
    async fn a_last_line_without_its_newline_is_read() {
        let (received, written) =
            read_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").await;
        assert_eq!(received.len(), 1, "{received:?}");
        assert!(received[0].contains("\"ping\""), "{received:?}");
        assert!(written.is_empty(), "{written:?}");

        // Found by fuzzing: a broken last line got no parse error, where the same line with its
        // newline did.
        let (received, written) = read_all(b"{\"id\":1}\n{\"jsonrpc\":\"2.{\"meth\"ocli").await;
        assert!(received.is_empty(), "{received:?}");
        assert_eq!(written.len(), 2, "{written:?}");
        assert!(written[0].contains("-32600"), "{written:?}");
        assert_eq!(written[1], format!("{PARSE_ERROR}\n"));

        // Found by fuzzing: a line that begins as JSON of the wrong type (a string where a
        // message is an object) and breaks JSON further on is not JSON: a parse error, not an
        // invalid request. JSON that is not a message gets an invalid request with its id.
        let (_, written) =
            read_all(b"\"a\":1\n[{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}]\n{\"id\":\"x\",\"method\":3}\n").await;
        assert_eq!(written.len(), 3, "{written:?}");
        assert_eq!(written[0], format!("{PARSE_ERROR}\n"));
        assert_eq!(
            serde_json::from_str::<Value>(&written[1]).unwrap(),
            serde_json::json!({
                "jsonrpc": "2.0", "id": null,
                "error": {"code": -32600, "message": "Invalid request"}
            })
        );
        assert!(written[2].contains("\"id\":\"x\""), "{written:?}");

        let (received, written) = read_all(b"\n  \n").await;
        assert!(
            received.is_empty() && written.is_empty(),
            "{received:?} {written:?}"
        );
    }

    /// A server reads a `tools/call` directly as that request; the message must be the one
    /// rmcp's own reading gives, for calls of every form and for lines that only look like one.
    #[test]
    fn a_call_read_directly_is_the_message_rmcp_reads() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2.5}}}"#,
            r#"{"method":"tools/call","params":{"name":"add"},"id":"x-1","jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{},"_meta":{"progressToken":7,"k":[1,{"v":null}]}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"s":"\u00e9\n\"q\""},"task":{"ttl":60000}},"extra":{"x":1}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":"a string"}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1,2]}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"add"},"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add"},"error":null}"#,
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","method":"ping","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":11,"method":"ping","method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":12,"id":13,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","\u0069d":14,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":15,"method":"tools\/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"1.0","id":16,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"id":17,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":18,"method":3,"params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":19,"method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"add","arguments":{"a":1}},"jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}"#,
            r#"[{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"add"}}]"#,
        ];
        let mut direct = 0;
        for line in lines {
            let rmcp = serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line.as_bytes());
            let ours = RoleServer::decode(line.as_bytes());
            let as_value = |m: &serde_json::Result<RxJsonRpcMessage<RoleServer>>| {
                m.as_ref().map(|m| serde_json::to_value(m).unwrap()).ok()
            };
            assert_eq!(as_value(&ours), as_value(&rmcp), "{line}");
            assert_eq!(
                format!("{:?}", ours.as_ref().ok()),
                format!("{:?}", rmcp.as_ref().ok()),
                "{line}"
            );
            let shape = serde_json::from_slice::<CallShape>(line.as_bytes());
            direct += usize::from(shape.is_ok_and(|s| s.0));
        }
        // The lines that look plainly like calls take the direct way (the first four, the four
        // malformed ones rmcp reads as a custom request, the escaped `id` and `/`, the null
        // and fractional ids, the wrong version, the one without a version, the repeated
        // `jsonrpc` key); a broken line or an array does not.
        assert_eq!(direct, 15);
    }

    #[tokio::test]
    async fn a_client_notes_what_is_not_json_rpc() {
        let input: &[u8] = b"Listening on 3000\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
        let stray = Arc::new(StrayLines::default());
        let mut transport = LineTransport::<rmcp::RoleClient, _, _>::new(
            input,
            Writes::default(),
            Stray::Note(Arc::clone(&stray)),
        );
        assert!(transport.receive().await.is_some());
        assert_eq!(
            stray.describe().unwrap(),
            "the server wrote 1 line to standard output that is not JSON-RPC (\"Listening on 3000\"); a stdio server must write only protocol messages there, and its logs to standard error"
        );
    }
}
