//! The relay: two pumps, client to upstream and upstream to client, that forward every message
//! byte for byte except the four the gates read — the `tools/list` answer, a `tools/call`
//! request and its answer, and `notifications/tools/list_changed` — and keep the map of
//! requests in flight (id → what was asked, when) that routes the answers, times out calls,
//! and answers every open request with an error when the upstream goes away.
//!
//! The proxy reads the upstream's tool list itself (after the client's
//! `notifications/initialized`, and again after each `list_changed`) with ids of its own,
//! strings that start with [`OWN_ID_PREFIX`], which a client may not use. A burst of
//! `list_changed` notifications costs at most two readings: one in progress, one after it.

use crate::child::Child;
use crate::proxy::audit::{AuditLog, arguments_hash};
use crate::proxy::calls::{CallDecision, Flag, check_call, error_result, gate_result};
use crate::proxy::gate::{Checked, Gate, ToolSet};
use crate::proxy::policy::ProxyOptions;
use crate::proxy::wire::{
    Frame, LineReader, envelope, error_response, id_key, message, overlong_id, response,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::watch;

/// The prefix of the ids of the proxy's own requests to the upstream.
pub(crate) const OWN_ID_PREFIX: &str = "toolpact-proxy/";
/// How an id of the proxy's own starts as a map key (a JSON string).
const OWN_KEY_PREFIX: &str = "\"toolpact-proxy/";

/// JSON-RPC's invalid request.
const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC's internal error: what the proxy answers when the upstream cannot.
const INTERNAL_ERROR: i32 = -32603;
/// A server error: too many requests in flight.
const BUSY: i32 = -32000;

/// How many pages of `tools/list` the proxy reads before it takes the upstream to page forever.
const MAX_PAGES: usize = 100;
/// How many tools the proxy accepts in one list.
const MAX_TOOLS: usize = 10_000;

/// How long a closing upstream gets to exit on its own before it is killed.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// One side's writer; `None` once closed.
type Writer = tokio::sync::Mutex<Option<Box<dyn AsyncWrite + Send + Unpin>>>;

/// What the gates share across sessions: the options, the lock, the audit log.
pub(crate) struct Shared {
    /// The options.
    pub(crate) options: ProxyOptions,
    /// The tool list gate.
    pub(crate) gate: Gate,
    /// The audit log.
    pub(crate) audit: AuditLog,
}

/// A request waiting for its answer.
enum Pending {
    /// A `tools/call` that was forwarded.
    Call(Call),
    /// A `tools/list`; `first_page` when it asked for the first page.
    List { first_page: bool },
    /// Anything else.
    Other { method: String },
}

impl Pending {
    fn method(&self) -> &str {
        match self {
            Pending::Call(_) => "tools/call",
            Pending::List { .. } => "tools/list",
            Pending::Other { method } => method,
        }
    }
}

/// A forwarded call.
struct Call {
    /// The name the client called.
    exposed: String,
    /// The upstream's name.
    tool: String,
    started: Instant,
    hash: String,
    arguments: Option<Value>,
    bytes: usize,
    /// Its time limit.
    limit: Duration,
    /// Its entry in [`State::deadlines`].
    deadline: Deadline,
}

/// When a call times out, and a number that tells apart calls with the same instant.
type Deadline = (Instant, u64);

/// The proxy's own reading of the tool list, page by page.
struct Fetch {
    id: String,
    pages: usize,
    tools: Vec<Value>,
    /// Tell the client the list changed once it is checked.
    announce: bool,
}

#[derive(Default)]
struct State {
    in_flight: HashMap<String, Pending>,
    /// The time limits of the calls in flight, soonest first. One task watches them all
    /// ([`Relay::watch_deadlines`]): a timer task for each call would cost every call a task
    /// started before it is forwarded and cancelled when its answer comes.
    deadlines: BTreeMap<Deadline, (String, Duration)>,
    tools: Arc<ToolSet>,
    fetch: Option<Fetch>,
    /// From the first page asked for until the list is checked.
    listing: bool,
    refetch: bool,
    next_id: u64,
    /// The client's log level, as a rank (debug 0 … emergency 7), once it set one.
    log_level: Option<u8>,
    /// Why the upstream is gone, once it is.
    gone: Option<String>,
    /// The verdicts of the last whole reading of the list, and of the pages of the reading in
    /// progress: a list read again (the proxy's own reading, then the client's) adds to the
    /// audit log and the log only what changed.
    last_reading: HashSet<VerdictKey>,
    this_reading: HashSet<VerdictKey>,
    /// The verdicts the client was told of in a log notification (while they last); a client
    /// that asks for logging after a list was checked hears of them with the next reading.
    told: HashSet<VerdictKey>,
}

/// A verdict as reports compare them: the event, the tool, the reason.
type VerdictKey = (&'static str, String, String);

impl State {
    /// Takes a request out of the map of requests in flight, and a call's time limit with it.
    fn take(&mut self, key: &str) -> Option<Pending> {
        let pending = self.in_flight.remove(key);
        if let Some(Pending::Call(call)) = &pending {
            self.deadlines.remove(&call.deadline);
        }
        pending
    }
}

/// One session: a client and its upstream.
pub(crate) struct Relay {
    shared: Arc<Shared>,
    origin: String,
    state: Mutex<State>,
    client: Writer,
    upstream: Writer,
    ready: watch::Sender<bool>,
    child: tokio::sync::Mutex<Option<Child>>,
    /// Set once the client left: the upstream's exit is then expected.
    closing: AtomicBool,
    /// The last number given to a call's deadline.
    deadlines: AtomicU64,
}

impl Relay {
    /// A session between a client's writer and an upstream's writer (the readers are given to
    /// [`Relay::run`]).
    pub(crate) fn new(
        shared: Arc<Shared>,
        origin: String,
        client: Box<dyn AsyncWrite + Send + Unpin>,
        upstream: Box<dyn AsyncWrite + Send + Unpin>,
        child: Option<Child>,
    ) -> Arc<Relay> {
        Arc::new(Relay {
            shared,
            origin,
            state: Mutex::new(State::default()),
            client: tokio::sync::Mutex::new(Some(client)),
            upstream: tokio::sync::Mutex::new(Some(upstream)),
            ready: watch::Sender::new(false),
            child: tokio::sync::Mutex::new(child),
            closing: AtomicBool::new(false),
            deadlines: AtomicU64::new(0),
        })
    }

    /// Relays until the client leaves or `shutdown` resolves, then closes the upstream.
    pub(crate) async fn run<CR, UR>(
        self: Arc<Self>,
        client: CR,
        upstream: UR,
        shutdown: impl Future<Output = ()> + Send,
    ) where
        CR: AsyncRead + Send + Unpin,
        UR: AsyncRead + Send + Unpin + 'static,
    {
        let pump = {
            let relay = Arc::clone(&self);
            tokio::spawn(async move { relay.upstream_loop(upstream).await })
        };
        let watchdog = {
            let relay = Arc::clone(&self);
            tokio::spawn(async move { relay.watch_deadlines().await })
        };
        tokio::select! {
            // The shutdown first, so that the signal handlers are in place before the client
            // gets its first answer.
            biased;
            () = shutdown => {}
            () = self.client_loop(client) => {}
        }
        self.close().await;
        pump.abort();
        watchdog.abort();
    }

    /// Times out the calls whose limit has passed. The task sleeps until the soonest limit,
    /// and never longer than the shortest limit a call can have: a call that starts meanwhile
    /// ends no sooner than that, so that starting a call need not wake the task.
    async fn watch_deadlines(self: Arc<Self>) {
        let options = self.options();
        let shortest = options
            .tool_timeouts
            .values()
            .copied()
            .fold(options.call_timeout, Duration::min);
        loop {
            let now = Instant::now();
            let soonest = self.state().deadlines.keys().next().map(|(at, _)| *at);
            let wake = soonest.map_or(later(now, shortest), |at| at.min(later(now, shortest)));
            tokio::time::sleep_until(wake.into()).await;
            let now = Instant::now();
            let expired: Vec<(String, Duration)> = {
                let mut state = self.state();
                let mut expired = Vec::new();
                while let Some(entry) = state.deadlines.first_entry()
                    && entry.key().0 <= now
                {
                    expired.push(entry.remove());
                }
                expired
            };
            for (key, limit) in expired {
                self.time_out(&key, limit).await;
            }
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock is held cannot leave the map half-updated in a way that
        // matters more than stopping the relay would.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A number for a new call's deadline.
    fn deadline_number(&self) -> u64 {
        self.deadlines.fetch_add(1, Ordering::Relaxed)
    }

    fn options(&self) -> &ProxyOptions {
        &self.shared.options
    }

    async fn to_client(&self, bytes: &[u8]) -> std::io::Result<()> {
        write(&self.client, bytes).await
    }

    async fn to_upstream(&self, bytes: &[u8]) -> std::io::Result<()> {
        write(&self.upstream, bytes).await
    }

    // ------------------------------------------------------------ client to upstream

    async fn client_loop<R: AsyncRead + Send + Unpin>(self: &Arc<Self>, read: R) {
        let max = self.options().max_message_bytes;
        let mut lines = LineReader::new(read, max);
        while let Some(frame) = lines.next().await {
            let alive = match frame {
                Frame::Overlong { bytes, head, tail } => {
                    let text = format!(
                        "the message is {bytes} bytes, over toolpact proxy's limit of {max} bytes; it was dropped"
                    );
                    let reply = match overlong_id(&head, &tail) {
                        Some(id) => error_response(&id, INVALID_REQUEST, &text),
                        None => error_response("null", INVALID_REQUEST, &text),
                    };
                    self.to_client(&reply).await.is_ok()
                }
                Frame::Line(line) => self.from_client(&line).await,
            };
            if !alive {
                return;
            }
        }
    }

    /// Handles one line from the client; `false` once the client cannot be written to.
    async fn from_client(self: &Arc<Self>, line: &[u8]) -> bool {
        let text = line.trim_ascii();
        if text.is_empty() {
            return true;
        }
        let Some(envelope) = envelope(text) else {
            let reply = if text.starts_with(b"[") {
                error_response(
                    "null",
                    INVALID_REQUEST,
                    "toolpact proxy does not take JSON-RPC batches (MCP dropped them in 2025-06-18); send each message on its own line",
                )
            } else {
                let mut parse = crate::jsonl::PARSE_ERROR.as_bytes().to_vec();
                parse.push(b'\n');
                parse
            };
            return self.to_client(&reply).await.is_ok();
        };
        match (envelope.method.as_deref(), envelope.id) {
            (Some(method), Some(id)) => {
                self.client_request(line, method, id, envelope.params).await
            }
            (Some(method), None) => {
                self.client_notification(line, method, envelope.params)
                    .await;
                true
            }
            // The client's answer to one of the upstream's requests (sampling, elicitation,
            // roots): the upstream's own id, passed back as it is.
            (None, _) => {
                let _ = self.to_upstream(line).await;
                true
            }
        }
    }

    async fn client_request(
        self: &Arc<Self>,
        line: &[u8],
        method: &str,
        id: &RawValue,
        params: Option<&RawValue>,
    ) -> bool {
        let key = id_key(id);
        if key.starts_with(OWN_KEY_PREFIX) {
            let text = format!(
                "request ids that start with {OWN_ID_PREFIX:?} are toolpact proxy's own; use another id"
            );
            return self
                .to_client(&error_response(&key, INVALID_REQUEST, &text))
                .await
                .is_ok();
        }
        if method == "tools/call" {
            return self.client_call(line, key, params).await;
        }
        let pending = match method {
            "tools/list" => Pending::List {
                first_page: params.is_none_or(|p| {
                    serde_json::from_str::<Value>(p.get())
                        .ok()
                        .and_then(|p| p.get("cursor").cloned())
                        .is_none_or(|c| c.is_null())
                }),
            },
            "logging/setLevel" => {
                let level = params
                    .and_then(|p| serde_json::from_str::<Value>(p.get()).ok())
                    .and_then(|p| p.get("level").and_then(Value::as_str).and_then(level_rank));
                self.state().log_level = level;
                Pending::Other {
                    method: method.to_owned(),
                }
            }
            _ => Pending::Other {
                method: method.to_owned(),
            },
        };
        if let Some(refusal) = self.admit(&key, pending) {
            return self.to_client(&refusal).await.is_ok();
        }
        let _ = self.to_upstream(line).await;
        true
    }

    /// Records a request in flight, or says why it cannot be sent.
    fn admit(&self, key: &str, pending: Pending) -> Option<Vec<u8>> {
        let mut state = self.state();
        if let Some(why) = &state.gone {
            return Some(error_response(
                key,
                INTERNAL_ERROR,
                &format!(
                    "the upstream server {} is no longer running ({why}); restart the client to start it again",
                    self.origin
                ),
            ));
        }
        let max = self.options().max_in_flight;
        if state.in_flight.len() >= max {
            return Some(error_response(
                key,
                BUSY,
                &format!(
                    "toolpact proxy has {max} requests waiting for the upstream server's answers already; wait for some of them"
                ),
            ));
        }
        if let Pending::Call(call) = &pending {
            state
                .deadlines
                .insert(call.deadline, (key.to_owned(), call.limit));
        }
        if let Some(Pending::Call(old)) = state.in_flight.insert(key.to_owned(), pending) {
            state.deadlines.remove(&old.deadline);
        }
        None
    }

    async fn client_call(
        self: &Arc<Self>,
        line: &[u8],
        key: String,
        params: Option<&RawValue>,
    ) -> bool {
        let params: Value = params
            .and_then(|p| serde_json::from_str(p.get()).ok())
            .unwrap_or(Value::Null);
        let exposed = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let Some(tools) = self.tools_when_ready().await else {
            let text = format!(
                "toolpact proxy has not received the tool list of {} yet, so it cannot check this call",
                self.origin
            );
            return self
                .to_client(&error_response(&key, INTERNAL_ERROR, &text))
                .await
                .is_ok();
        };
        let decision = check_call(&tools, &params, self.options());
        let audit = &self.shared.audit;
        match decision {
            CallDecision::Refuse { code, message } => {
                if audit.is_on() {
                    let mut f = self.argument_fields(&params);
                    f.extend(fields([
                        ("tool", json!(exposed)),
                        ("outcome", json!("refused")),
                        ("reason", json!(message)),
                    ]));
                    audit.write("call-refused", f);
                }
                tracing::warn!("refused a call to {exposed:?}: {message}");
                self.to_client(&error_response(&key, code, &message))
                    .await
                    .is_ok()
            }
            CallDecision::Answer {
                result,
                tool,
                errors,
            } => {
                if audit.is_on() {
                    let mut f = self.argument_fields(&params);
                    f.extend(fields([
                        ("tool", json!(tool)),
                        ("outcome", json!("invalid-arguments")),
                        ("errors", errors),
                    ]));
                    audit.write("call-refused", f);
                }
                tracing::warn!("answered a call to {tool:?} with invalid arguments itself");
                self.to_client(&response(&key, &result)).await.is_ok()
            }
            CallDecision::Forward {
                params: changed,
                tool,
                repairs,
            } => {
                let logs = audit.is_on();
                let arguments = if logs {
                    params.get("arguments").cloned()
                } else {
                    None
                };
                let limit = self.options().timeout_of(&tool);
                let started = Instant::now();
                let deadline = (later(started, limit), self.deadline_number());
                let bytes = match &changed {
                    Some(p) => message(Some(&key), "tools/call", p),
                    None => line.to_vec(),
                };
                let call = Call {
                    exposed: exposed.clone(),
                    tool: tool.clone(),
                    started,
                    hash: if logs {
                        arguments.as_ref().map(arguments_hash).unwrap_or_default()
                    } else {
                        String::new()
                    },
                    arguments: if logs && audit.logs_arguments() {
                        arguments
                    } else {
                        None
                    },
                    bytes: line.len(),
                    limit,
                    deadline,
                };
                if let Some(refusal) = self.admit(&key, Pending::Call(call)) {
                    return self.to_client(&refusal).await.is_ok();
                }
                if logs {
                    let mut f = self.argument_fields(&params);
                    f.extend(fields([
                        ("tool", json!(tool)),
                        ("outcome", json!("forwarded")),
                        ("bytes", json!(line.len())),
                    ]));
                    if exposed != tool {
                        f.insert("calledAs".to_owned(), json!(exposed));
                    }
                    if repairs > 0 {
                        f.insert("repairs".to_owned(), json!(repairs));
                    }
                    audit.write("call-forwarded", f);
                }
                let _ = self.to_upstream(&bytes).await;
                true
            }
        }
    }

    /// The argument hash (and the arguments with `--log-arguments`) for an audit event.
    fn argument_fields(&self, params: &Value) -> Map<String, Value> {
        let mut f = Map::new();
        if let Some(arguments) = params.get("arguments") {
            f.insert(
                "arguments_sha256".to_owned(),
                json!(arguments_hash(arguments)),
            );
            if self.shared.audit.logs_arguments() {
                f.insert("arguments".to_owned(), arguments.clone());
            }
        }
        f
    }

    /// The checked tool list, once there is one; starts reading it when nobody has. `None`
    /// when it did not come within the call time limit.
    async fn tools_when_ready(self: &Arc<Self>) -> Option<Arc<ToolSet>> {
        let mut ready = self.ready.subscribe();
        if !*ready.borrow() {
            let start = {
                let state = self.state();
                !state.listing && state.next_id == 0 && state.gone.is_none()
            };
            if start {
                self.start_fetch(false).await;
            }
            let limit = self.options().call_timeout;
            if !matches!(
                tokio::time::timeout(limit, ready.wait_for(|r| *r)).await,
                Ok(Ok(_))
            ) {
                return None;
            }
        }
        Some(Arc::clone(&self.state().tools))
    }

    async fn client_notification(
        self: &Arc<Self>,
        line: &[u8],
        method: &str,
        params: Option<&RawValue>,
    ) {
        if self.state().gone.is_some() {
            return;
        }
        if method == "notifications/cancelled"
            && let Some(id) = params
                .and_then(|p| serde_json::from_str::<Value>(p.get()).ok())
                .and_then(|p| p.get("requestId").cloned())
        {
            let key = id.to_string();
            let cancelled = self.state().take(&key);
            if let Some(Pending::Call(call)) = cancelled {
                self.audit_answer(&call, "cancelled", 0, &[], None);
            }
        }
        let _ = self.to_upstream(line).await;
        if method == "notifications/initialized" {
            let start = !self.state().listing;
            if start {
                self.start_fetch(false).await;
            }
        }
    }

    // ------------------------------------------------------------ upstream to client

    async fn upstream_loop<R: AsyncRead + Send + Unpin>(self: Arc<Self>, read: R) {
        let max = self.options().max_message_bytes;
        let mut lines = LineReader::new(read, max);
        while let Some(frame) = lines.next().await {
            let alive = match frame {
                Frame::Overlong { bytes, head, tail } => {
                    self.upstream_overlong(bytes, &head, &tail).await
                }
                Frame::Line(line) => self.from_upstream(&line).await,
            };
            if !alive {
                return;
            }
        }
        self.upstream_ended().await;
    }

    /// Handles one line from the upstream; `false` once the client cannot be written to.
    async fn from_upstream(self: &Arc<Self>, line: &[u8]) -> bool {
        let text = line.trim_ascii();
        if text.is_empty() {
            return true;
        }
        let Some(envelope) = envelope(text) else {
            if let Some(child) = self.child.lock().await.as_ref() {
                child.note_stray(text);
            }
            tracing::debug!(
                "the upstream server wrote a line that is not a JSON-RPC message; it was dropped"
            );
            return true;
        };
        match (envelope.method.as_deref(), envelope.id) {
            (None, Some(id)) => {
                self.upstream_response(line, id_key(id), envelope.result)
                    .await
            }
            (Some("notifications/tools/list_changed"), None) => {
                self.list_changed().await;
                true
            }
            // Requests to the client (sampling, elicitation, roots, ping), other notifications
            // (progress, logging, resources), and errors without an id: as they are.
            _ => self.to_client(line).await.is_ok(),
        }
    }

    async fn upstream_response(
        self: &Arc<Self>,
        line: &[u8],
        key: String,
        result: Option<&RawValue>,
    ) -> bool {
        if key.starts_with(OWN_KEY_PREFIX) {
            self.own_response(&key, line, result).await;
            return true;
        }
        let pending = self.state().take(&key);
        match pending {
            None => {
                tracing::warn!(
                    "the upstream server answered request {key}, which is not waiting for an answer (answered by the proxy already, cancelled, or never sent); the answer was dropped"
                );
                true
            }
            Some(Pending::Other { .. }) => self.to_client(line).await.is_ok(),
            Some(Pending::Call(call)) => {
                let Some(raw) = result else {
                    self.audit_answer(&call, "error", line.len(), &[], None);
                    return self.to_client(line).await.is_ok();
                };
                let Ok(mut value) = serde_json::from_str::<Value>(raw.get()) else {
                    return self.to_client(line).await.is_ok();
                };
                let tools = Arc::clone(&self.state().tools);
                let flags = gate_result(
                    &mut value,
                    raw.get().len(),
                    tools.get(&call.exposed),
                    self.options(),
                );
                let is_error = value.get("isError").and_then(Value::as_bool) == Some(true);
                let outcome = if is_error { "tool-error" } else { "ok" };
                for flag in &flags {
                    tracing::warn!(
                        "the result of {} was flagged ({}): {}",
                        call.tool,
                        flag.kind,
                        flag.action
                    );
                }
                self.audit_answer(&call, outcome, line.len(), &flags, None);
                if flags.is_empty() {
                    self.to_client(line).await.is_ok()
                } else {
                    if let Some(text) = flags.iter().map(|f| flag_note(&call.tool, f)).next() {
                        self.log_to_client("warning", &text).await;
                    }
                    self.to_client(&response(&key, &value)).await.is_ok()
                }
            }
            Some(Pending::List { first_page }) => {
                let Some(mut value) =
                    result.and_then(|r| serde_json::from_str::<Value>(r.get()).ok())
                else {
                    return self.to_client(line).await.is_ok();
                };
                let Some(tools) = value.get_mut("tools").map(Value::take) else {
                    return self.to_client(line).await.is_ok();
                };
                let tools = match tools {
                    Value::Array(tools) => tools,
                    other => vec![other],
                };
                let complete = first_page && value.get("nextCursor").is_none_or(Value::is_null);
                let checked = self.check(tools).await;
                if let Some(object) = value.as_object_mut() {
                    object.insert("tools".to_owned(), Value::Array(checked.tools.clone()));
                }
                self.report(&checked, first_page).await;
                if complete {
                    self.state().tools = Arc::new(checked.set);
                    self.ready.send_replace(true);
                }
                self.to_client(&response(&key, &value)).await.is_ok()
            }
        }
    }

    /// Checks a tool list off the async threads: the linter takes milliseconds.
    async fn check(self: &Arc<Self>, tools: Vec<Value>) -> Checked {
        let relay = Arc::clone(self);
        let checked = tokio::task::spawn_blocking(move || {
            relay
                .shared
                .gate
                .check(tools, &relay.origin, &relay.shared.options)
        })
        .await;
        checked.unwrap_or_else(|e| {
            tracing::error!("checking the tool list failed: {e}");
            Checked {
                tools: Vec::new(),
                withheld: Vec::new(),
                warned: Vec::new(),
                set: ToolSet::default(),
            }
        })
    }

    /// Audit events, log lines and log notifications for a checked list.
    /// `first_page`: the check is of the first page of a reading (or of a whole list).
    async fn report(&self, checked: &Checked, first_page: bool) {
        let audit = &self.shared.audit;
        if audit.is_on() {
            audit.write(
                "list-checked",
                fields([
                    ("upstream", json!(self.origin)),
                    ("passed", json!(checked.tools.len())),
                    ("withheld", json!(checked.withheld.len())),
                    ("warned", json!(checked.warned.len())),
                ]),
            );
        }
        let kinds = [
            ("tool-withheld", &checked.withheld),
            ("tool-warned", &checked.warned),
        ];
        let current: HashSet<VerdictKey> = kinds
            .iter()
            .flat_map(|(event, verdicts)| {
                verdicts
                    .iter()
                    .map(|v| (*event, v.tool.clone(), v.reason.clone()))
            })
            .collect();
        let warning = level_rank("warning");
        // What counts as already reported: the verdicts of the last whole reading, and those of
        // the pages of this one read so far.
        let (seen, told, can_tell) = {
            let mut state = self.state();
            let state = &mut *state;
            if first_page {
                state.last_reading = std::mem::take(&mut state.this_reading);
                // A verdict the client was told of that went away for a whole reading is told
                // again when it comes back.
                let (last, this) = (&state.last_reading, &current);
                state.told.retain(|k| last.contains(k) || this.contains(k));
            }
            let seen: HashSet<VerdictKey> = current
                .iter()
                .filter(|k| state.last_reading.contains(*k) || state.this_reading.contains(*k))
                .cloned()
                .collect();
            state.this_reading.extend(current.iter().cloned());
            let can_tell = state
                .log_level
                .is_some_and(|wanted| warning.is_some_and(|rank| rank >= wanted));
            let told = if can_tell {
                let told = state.told.clone();
                state.told.extend(current);
                told
            } else {
                current
            };
            (seen, told, can_tell)
        };
        for (event, verdicts) in kinds {
            for verdict in verdicts {
                let key = (event, verdict.tool.clone(), verdict.reason.clone());
                let is_new = !seen.contains(&key);
                if is_new && audit.is_on() {
                    audit.write(
                        event,
                        fields([
                            ("tool", json!(verdict.tool)),
                            ("check", json!(verdict.check)),
                            ("reason", json!(verdict.reason)),
                        ]),
                    );
                }
                let text = if event == "tool-withheld" {
                    format!("withheld tool {}: {}", verdict.tool, verdict.reason)
                } else {
                    format!(
                        "passed tool {} with a warning: {}",
                        verdict.tool, verdict.reason
                    )
                };
                if is_new {
                    tracing::warn!("{text}");
                }
                if can_tell && !told.contains(&key) {
                    self.send_log("warning", &text).await;
                }
            }
        }
    }

    /// Sends `notifications/message` to a client that asked for logging at `level` or below.
    async fn log_to_client(&self, level: &str, text: &str) {
        let wanted = self.state().log_level;
        if wanted.is_some_and(|wanted| level_rank(level).is_some_and(|rank| rank >= wanted)) {
            self.send_log(level, text).await;
        }
    }

    /// Sends `notifications/message`, the client's log level checked by the caller.
    async fn send_log(&self, level: &str, text: &str) {
        let params = json!({"level": level, "logger": "toolpact-proxy", "data": text});
        let _ = self
            .to_client(&message(None, "notifications/message", &params))
            .await;
    }

    fn audit_answer(
        &self,
        call: &Call,
        outcome: &str,
        bytes: usize,
        flags: &[Flag],
        reason: Option<&str>,
    ) {
        let audit = &self.shared.audit;
        if !audit.is_on() {
            return;
        }
        let mut f = fields([
            ("tool", json!(call.tool)),
            ("outcome", json!(outcome)),
            (
                "duration_ms",
                json!((call.started.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0),
            ),
            ("request_bytes", json!(call.bytes)),
            ("response_bytes", json!(bytes)),
            ("arguments_sha256", json!(call.hash)),
        ]);
        if let Some(arguments) = &call.arguments {
            f.insert("arguments".to_owned(), arguments.clone());
        }
        if let Some(reason) = reason {
            f.insert("reason".to_owned(), json!(reason));
        }
        if !flags.is_empty() {
            f.insert(
                "findings".to_owned(),
                Value::Array(
                    flags
                        .iter()
                        .map(|flag| {
                            json!({"kind": flag.kind, "action": flag.action, "detail": flag.detail})
                        })
                        .collect(),
                ),
            );
        }
        let event = if flags.is_empty() {
            "call-answered"
        } else {
            "result-flagged"
        };
        audit.write(event, f);
    }

    /// A `tools/call` that got no answer in time: the client gets an error result, the
    /// upstream a cancellation.
    async fn time_out(&self, key: &str, limit: Duration) {
        let call = {
            let mut state = self.state();
            match state.in_flight.remove(key) {
                Some(Pending::Call(call)) => call,
                Some(other) => {
                    state.in_flight.insert(key.to_owned(), other);
                    return;
                }
                None => return,
            }
        };
        let text = format!(
            "{} did not answer within {}; toolpact proxy cancelled the call. Try again later, or with less to do.",
            call.exposed,
            toolpact::human_duration(limit)
        );
        self.audit_answer(&call, "timed-out", 0, &[], Some(&text));
        tracing::warn!("{text}");
        let _ = self.to_client(&response(key, &error_result(&text))).await;
        let request_id: Value = serde_json::from_str(key).unwrap_or(Value::Null);
        let params = json!({"requestId": request_id, "reason": text});
        let _ = self
            .to_upstream(&message(None, "notifications/cancelled", &params))
            .await;
    }

    async fn upstream_overlong(self: &Arc<Self>, bytes: usize, head: &[u8], tail: &[u8]) -> bool {
        let max = self.options().max_message_bytes;
        let text = format!(
            "the upstream server's answer is {bytes} bytes, over toolpact proxy's limit of {max} bytes; it was dropped"
        );
        tracing::warn!("{text}");
        let Some(key) = overlong_id(head, tail) else {
            return true;
        };
        if key.starts_with(OWN_KEY_PREFIX) {
            let fetch = self.state().fetch.take();
            if fetch.is_some() {
                self.list_failed(&format!("reading the tool list: {text}"))
                    .await;
            }
            return true;
        }
        let pending = self.state().take(&key);
        match pending {
            Some(pending) => {
                if let Pending::Call(call) = &pending {
                    self.audit_answer(call, "dropped", bytes, &[], Some(&text));
                }
                self.to_client(&error_response(&key, INTERNAL_ERROR, &text))
                    .await
                    .is_ok()
            }
            None => true,
        }
    }

    /// The upstream closed its output: every request in flight gets an error saying so, and
    /// every later one too.
    async fn upstream_ended(&self) {
        if self.closing.load(Ordering::SeqCst) {
            return;
        }
        let reason = {
            let mut child = self.child.lock().await;
            match child.as_mut() {
                Some(child) => {
                    let status = child.exit_status(Duration::from_millis(500)).await;
                    let stderr = child.stderr_suffix().await;
                    let stray = child
                        .stray_output()
                        .map(|s| format!("; {s}"))
                        .unwrap_or_default();
                    format!(
                        "it exited{}{stray}{stderr}",
                        status.map(|s| format!(" ({s})")).unwrap_or_default()
                    )
                }
                None => "it closed the connection".to_owned(),
            }
        };
        tracing::warn!("the upstream server {}: {reason}", self.origin);
        let open: Vec<(String, Pending)> = {
            let mut state = self.state();
            state.gone = Some(reason.clone());
            state.fetch = None;
            state.listing = false;
            state.deadlines.clear();
            state.in_flight.drain().collect()
        };
        self.ready.send_replace(true);
        if self.shared.audit.is_on() {
            self.shared.audit.write(
                "upstream-exited",
                fields([
                    ("upstream", json!(self.origin)),
                    ("reason", json!(reason)),
                    ("in_flight", json!(open.len())),
                ]),
            );
        }
        for (key, pending) in open {
            let text = format!(
                "the upstream server {} stopped while {} was waiting for its answer: {reason}",
                self.origin,
                pending.method()
            );
            if let Pending::Call(call) = &pending {
                self.audit_answer(call, "upstream-exited", 0, &[], Some(&text));
            }
            let _ = self
                .to_client(&error_response(&key, INTERNAL_ERROR, &text))
                .await;
        }
    }

    // ------------------------------------------------------------ the proxy's own reading

    async fn list_changed(self: &Arc<Self>) {
        let busy = {
            let mut state = self.state();
            if state.listing {
                state.refetch = true;
            }
            state.listing
        };
        if !busy {
            self.start_fetch(true).await;
        }
    }

    async fn start_fetch(self: &Arc<Self>, announce: bool) {
        let id = self.begin_fetch(announce, Vec::new(), 0);
        let _ = self
            .to_upstream(&message(Some(&id), "tools/list", &json!({})))
            .await;
    }

    /// Records a reading in progress under a new id and returns the id.
    fn begin_fetch(&self, announce: bool, tools: Vec<Value>, pages: usize) -> String {
        let mut state = self.state();
        state.next_id += 1;
        state.listing = true;
        let id = Value::String(format!("{OWN_ID_PREFIX}{}", state.next_id)).to_string();
        state.fetch = Some(Fetch {
            id: id.clone(),
            pages,
            tools,
            announce,
        });
        id
    }

    async fn own_response(self: &Arc<Self>, key: &str, line: &[u8], result: Option<&RawValue>) {
        let fetch = {
            let mut state = self.state();
            match &state.fetch {
                Some(fetch) if fetch.id == key => state.fetch.take(),
                _ => None,
            }
        };
        let Some(mut fetch) = fetch else { return };
        let Some(mut value) = result.and_then(|r| serde_json::from_str::<Value>(r.get()).ok())
        else {
            // The error's own words say what went wrong (an answer over the size limit, a
            // connection cut off, the server's own reason).
            // Cut and escaped: the words go to standard error, and are the server's.
            let said = serde_json::from_slice::<Value>(line).ok().and_then(|m| {
                m["error"]["message"].as_str().map(|said| {
                    let cut: String = said.chars().take(300).collect();
                    let more = if cut.len() < said.len() { "…" } else { "" };
                    format!("{}{more}", cut.escape_debug())
                })
            });
            let text = match said {
                Some(said) => {
                    format!("the upstream server answered tools/list with an error: {said}")
                }
                None => "the upstream server answered tools/list with an error".to_owned(),
            };
            self.list_failed(&text).await;
            return;
        };
        let Some(Value::Array(page)) = value.get_mut("tools").map(Value::take) else {
            self.list_failed("the upstream server's tools/list answer has no `tools` array")
                .await;
            return;
        };
        fetch.tools.extend(page);
        fetch.pages += 1;
        if fetch.tools.len() > MAX_TOOLS {
            self.list_failed(&format!(
                "the upstream server lists more than {MAX_TOOLS} tools"
            ))
            .await;
            return;
        }
        if let Some(cursor) = value.get("nextCursor").filter(|c| !c.is_null()) {
            if fetch.pages >= MAX_PAGES {
                self.list_failed(&format!(
                    "the upstream server's tool list goes on past {MAX_PAGES} pages"
                ))
                .await;
                return;
            }
            let params = json!({"cursor": cursor});
            let id = self.begin_fetch(fetch.announce, fetch.tools, fetch.pages);
            let _ = self
                .to_upstream(&message(Some(&id), "tools/list", &params))
                .await;
            return;
        }
        let checked = self.check(fetch.tools).await;
        self.report(&checked, true).await;
        let refetch = {
            let mut state = self.state();
            state.tools = Arc::new(checked.set);
            state.listing = false;
            std::mem::take(&mut state.refetch)
        };
        self.ready.send_replace(true);
        if fetch.announce {
            let _ = self
                .to_client(&message(
                    None,
                    "notifications/tools/list_changed",
                    &json!({}),
                ))
                .await;
        }
        if refetch {
            self.start_fetch(true).await;
        }
    }

    async fn list_failed(&self, why: &str) {
        tracing::warn!("{}: {why}", self.origin);
        if self.shared.audit.is_on() {
            self.shared.audit.write(
                "list-failed",
                fields([("upstream", json!(self.origin)), ("reason", json!(why))]),
            );
        }
        {
            let mut state = self.state();
            state.refetch = false;
            state.listing = false;
        }
        self.ready.send_replace(true);
    }

    /// Closes the upstream's input; a child gets a moment to exit, then is killed.
    async fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        if let Some(mut writer) = self.upstream.lock().await.take() {
            let _ = writer.shutdown().await;
        }
        if let Some(child) = self.child.lock().await.as_mut() {
            child.wait_exit(CLOSE_GRACE).await;
            child.kill();
        }
    }
}

/// `by` after `at`, or a year after it when that is later still (`--call-timeout` takes any
/// number of seconds).
fn later(at: Instant, by: Duration) -> Instant {
    const YEAR: Duration = Duration::from_secs(365 * 24 * 60 * 60);
    at.checked_add(by.min(YEAR)).unwrap_or(at)
}

/// Writes one message, in one write, and flushes it.
async fn write(writer: &Writer, bytes: &[u8]) -> std::io::Result<()> {
    let mut writer = writer.lock().await;
    let Some(writer) = writer.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "closed",
        ));
    };
    writer.write_all(bytes).await?;
    writer.flush().await
}

/// The rank of an MCP log level (RFC 5424 order), `None` for an unknown one.
fn level_rank(level: &str) -> Option<u8> {
    [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ]
    .iter()
    .position(|l| *l == level)
    .and_then(|i| u8::try_from(i).ok())
}

/// One sentence for the client's log about a flagged result.
fn flag_note(tool: &str, flag: &Flag) -> String {
    format!(
        "the result of {tool} was flagged ({}) and {}",
        flag.kind, flag.action
    )
}

/// An audit event's fields from pairs.
fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}
