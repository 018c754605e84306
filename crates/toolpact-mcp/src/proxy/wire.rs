//! The proxy's view of a message: newline-delimited JSON read with a size cap, each line read
//! once into an envelope (its `id`, `method` and where `params`, `result` and `error` are) that
//! borrows the line, so that a message the gates do not look into is forwarded byte for byte.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How much of the start and the end of an overlong message is kept, to find its `id`.
const KEPT_ENDS: usize = 4096;

/// What [`LineReader::next`] read.
#[derive(Debug)]
pub(crate) enum Frame {
    /// A whole line, with its `\n` when it had one.
    Line(Vec<u8>),
    /// A line longer than the cap, dropped; its start and end are kept.
    Overlong {
        /// The line's length in bytes.
        bytes: usize,
        /// Its first bytes.
        head: Vec<u8>,
        /// Its last bytes.
        tail: Vec<u8>,
    },
}

/// Reads lines of at most `max` bytes; a longer line is skipped without being held.
pub(crate) struct LineReader<R> {
    read: BufReader<R>,
    max: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// A reader with a cap of `max` bytes a line.
    pub(crate) fn new(read: R, max: usize) -> Self {
        LineReader {
            read: BufReader::with_capacity(64 * 1024, read),
            max,
        }
    }

    /// The next line; `None` at the end of the input (or when it cannot be read).
    pub(crate) async fn next(&mut self) -> Option<Frame> {
        let mut line = Vec::new();
        let mut overlong: Option<(usize, Vec<u8>, Vec<u8>)> = None;
        loop {
            let (consumed, done) = {
                let available = match self.read.fill_buf().await {
                    Ok(available) => available,
                    Err(e) => {
                        tracing::debug!("cannot read: {e}");
                        return None;
                    }
                };
                if available.is_empty() {
                    return match overlong {
                        Some((bytes, head, tail)) => Some(Frame::Overlong { bytes, head, tail }),
                        None if line.is_empty() => None,
                        None => Some(Frame::Line(line)),
                    };
                }
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                let chunk = &available[..take];
                match &mut overlong {
                    Some((bytes, _, tail)) => {
                        *bytes += take;
                        keep_tail(tail, chunk);
                    }
                    None if line.len() + take > self.max => {
                        let mut head = std::mem::take(&mut line);
                        let bytes = head.len() + take;
                        let mut tail = Vec::new();
                        keep_tail(&mut tail, &head);
                        keep_tail(&mut tail, chunk);
                        head.truncate(KEPT_ENDS);
                        head.extend_from_slice(&chunk[..chunk.len().min(KEPT_ENDS)]);
                        head.truncate(KEPT_ENDS);
                        overlong = Some((bytes, head, tail));
                    }
                    None => line.extend_from_slice(chunk),
                }
                (take, newline.is_some())
            };
            self.read.consume(consumed);
            if done {
                return Some(match overlong {
                    Some((bytes, head, tail)) => Frame::Overlong { bytes, head, tail },
                    None => Frame::Line(line),
                });
            }
        }
    }
}

/// Appends `chunk` to `tail`, keeping only the last [`KEPT_ENDS`] bytes.
fn keep_tail(tail: &mut Vec<u8>, chunk: &[u8]) {
    tail.extend_from_slice(&chunk[chunk.len().saturating_sub(KEPT_ENDS)..]);
    if tail.len() > KEPT_ENDS {
        tail.drain(..tail.len() - KEPT_ENDS);
    }
}

/// A JSON-RPC message as far as the proxy reads it: every member borrowed from the line.
#[derive(Debug, Deserialize)]
pub(crate) struct Envelope<'a> {
    /// The request's id, as sent.
    #[serde(borrow, default)]
    pub(crate) id: Option<&'a RawValue>,
    /// The method of a request or notification.
    #[serde(borrow, default)]
    pub(crate) method: Option<Cow<'a, str>>,
    /// The params.
    #[serde(borrow, default)]
    pub(crate) params: Option<&'a RawValue>,
    /// The result of a response (an error response has none).
    #[serde(borrow, default)]
    pub(crate) result: Option<&'a RawValue>,
}

/// Reads a line's envelope; `None` when it is not a JSON object (serde would read an array
/// into the struct member by member).
pub(crate) fn envelope(line: &[u8]) -> Option<Envelope<'_>> {
    if !line.starts_with(b"{") {
        return None;
    }
    serde_json::from_slice(line).ok()
}

/// An id as a map key: the same for the same id however it was escaped.
pub(crate) fn id_key(id: &RawValue) -> String {
    let text = id.get();
    if !text.contains('\\') {
        return text.to_owned();
    }
    serde_json::from_str::<Value>(text).map_or_else(|_| text.to_owned(), |v| v.to_string())
}

/// The `id` of an overlong message, looked for where JSON-RPC libraries write it: right after
/// `{"jsonrpc":"2.0",` at the start, or as the last member at the end.
pub(crate) fn overlong_id(head: &[u8], tail: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(head);
    let head = head.trim_start();
    for start in [r#"{"jsonrpc":"2.0","id":"#, r#"{"id":"#] {
        if let Some(rest) = head.strip_prefix(start) {
            return leading_id(rest);
        }
    }
    let tail = String::from_utf8_lossy(tail);
    let tail = tail.trim_end().strip_suffix('}')?;
    let at = tail.rfind(r#""id":"#)?;
    let id = tail[at + 5..].trim();
    serde_json::from_str::<Value>(id)
        .ok()
        .filter(|v| v.is_number() || v.is_string())
        .map(|v| v.to_string())
}

/// The number or string at the start of `text`.
fn leading_id(text: &str) -> Option<String> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(v)) if v.is_number() || v.is_string() => Some(v.to_string()),
        _ => None,
    }
}

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` and its newline.
pub(crate) fn response(id: &str, result: &Value) -> Vec<u8> {
    let mut out = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#).into_bytes();
    let _ = serde_json::to_writer(&mut out, result);
    out.extend_from_slice(b"}\n");
    out
}

/// `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":MESSAGE}}` and its newline.
pub(crate) fn error_response(id: &str, code: i32, message: &str) -> Vec<u8> {
    let error = serde_json::json!({"code": code, "message": message});
    let mut out = format!(r#"{{"jsonrpc":"2.0","id":{id},"error":"#).into_bytes();
    let _ = serde_json::to_writer(&mut out, &error);
    out.extend_from_slice(b"}\n");
    out
}

/// A request or notification (`id` `None`) and its newline.
pub(crate) fn message(id: Option<&str>, method: &str, params: &Value) -> Vec<u8> {
    let mut out = br#"{"jsonrpc":"2.0","#.to_vec();
    if let Some(id) = id {
        out.extend_from_slice(format!(r#""id":{id},"#).as_bytes());
    }
    out.extend_from_slice(br#""method":"#);
    let _ = serde_json::to_writer(&mut out, method);
    out.extend_from_slice(br#","params":"#);
    let _ = serde_json::to_writer(&mut out, params);
    out.extend_from_slice(b"}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn overlong_lines_are_skipped_and_their_ends_kept() {
        let mut input = br#"{"jsonrpc":"2.0","id":7,"result":{"x":""#.to_vec();
        input.extend(std::iter::repeat_n(b'a', 100_000));
        input.extend_from_slice(b"\"}}\n{\"a\":1}\n");
        let mut reader = LineReader::new(&input[..], 1000);
        let Some(Frame::Overlong { bytes, head, tail }) = reader.next().await else {
            panic!("not overlong")
        };
        assert!(bytes > 100_000);
        assert!(head.len() <= KEPT_ENDS && tail.len() <= KEPT_ENDS);
        assert_eq!(overlong_id(&head, &tail).as_deref(), Some("7"));
        let Some(Frame::Line(line)) = reader.next().await else {
            panic!("no line")
        };
        assert_eq!(line, b"{\"a\":1}\n");
        assert!(reader.next().await.is_none());
    }

    #[test]
    fn ids_are_found_at_either_end() {
        assert_eq!(
            overlong_id(
                b"{\"result\":{\"tools\":[",
                b"]},\"jsonrpc\":\"2.0\",\"id\":\"abc\"}\n"
            )
            .as_deref(),
            Some("\"abc\"")
        );
        assert_eq!(overlong_id(b"{\"result\":{", b"\"id\":{}}"), None);
    }

    #[test]
    fn envelopes_borrow_the_line() {
        let line =
            br#"{"jsonrpc":"2.0","id":"a\u0062","method":"tools/call","params":{"name":"x"}}"#;
        let e = envelope(line).unwrap();
        assert_eq!(e.method.as_deref(), Some("tools/call"));
        assert_eq!(id_key(e.id.unwrap()), "\"ab\"");
        assert_eq!(e.params.unwrap().get(), r#"{"name":"x"}"#);
    }
}
