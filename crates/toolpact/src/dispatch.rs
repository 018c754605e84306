//! The call loop: a call in any provider's shape → the tool it names (original or
//! rewritten name) → arguments validated against the full original schema → the handler, with
//! a time limit, cancellation and panic isolation → output validated → a result the model can
//! read, in the provider's shape.
//!
//! No runtime is required: [`dispatch`] is a future that any executor can drive, and
//! [`dispatch_blocking`] drives it on the current thread.

use crate::exchange::call::ToolCall;
use crate::export::ReadBack;
use crate::handler::{CallContext, Cancellation, ClientPeer, ToolError};
use crate::lower::ReadBackStep;
use crate::provider::table::provider;
use crate::provider::{RenderOptions, Target};
use crate::registry::{Registered, Registry};
use crate::repair::{Repair, repair};
use crate::result::ToolResult;
use crate::tool::Tool;
use crate::validate::{ArgumentErrors, DEFAULT_MESSAGE_LIMIT, check};
use futures::FutureExt;
use futures::future::{Either, ready, select};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

/// How to dispatch.
#[derive(Clone)]
pub struct DispatchOptions {
    /// The most a handler may take; past it the call is cancelled and the model reads a
    /// time-out error.
    pub time_limit: Duration,
    /// Repair the usual model slips (a JSON-encoded string where an object, array, number or
    /// boolean belongs; `"10"` for an integer), re-validate, and record each repair in the
    /// result's `_meta`. Off by default.
    pub lenient: bool,
    /// How many argument errors a message lists before "and K more".
    pub message_limit: usize,
    /// Data attached to every call's [`CallContext`].
    pub data: Option<Arc<dyn Any + Send + Sync>>,
    /// The export the calls answer, when the model saw the tools through one
    /// ([`Export::read_back`](crate::Export)): a call that breaks the schema as written only
    /// because it follows the export's rewrites (a null for an optional property in strict
    /// mode, an enum value Gemini sends as a string) is read back before it is validated,
    /// and each change is recorded in the result's `_meta`. `None` reads calls as they are.
    pub read_back: Option<Arc<ReadBack>>,
    /// The client the call comes from, which its handler reaches through
    /// [`CallContext::client`] (set per call by a server such as toolpact-mcp's).
    pub client: Option<Arc<dyn ClientPeer>>,
    /// The `_meta` object of the request that carried the call ([`CallContext::meta`]).
    pub meta: Option<Map<String, Value>>,
    /// The flag the handler finds in [`CallContext::cancellation`], for a caller that cancels
    /// the call from outside (a client's `notifications/cancelled`); a fresh one when `None`.
    pub cancellation: Option<Cancellation>,
}

impl Default for DispatchOptions {
    fn default() -> Self {
        DispatchOptions {
            time_limit: Duration::from_secs(60),
            lenient: false,
            message_limit: DEFAULT_MESSAGE_LIMIT,
            data: None,
            read_back: None,
            client: None,
            meta: None,
            cancellation: None,
        }
    }
}

impl std::fmt::Debug for DispatchOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DispatchOptions")
            .field("time_limit", &self.time_limit)
            .field("lenient", &self.lenient)
            .field("message_limit", &self.message_limit)
            .field("read_back", &self.read_back.as_ref().map(|r| r.len()))
            .finish()
    }
}

/// How a dispatch ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Outcome {
    /// The handler ran and its output conforms.
    Ok,
    /// No tool has this name (in MCP, a protocol error `-32602`).
    UnknownTool {
        /// The closest known names.
        suggestions: Vec<String>,
    },
    /// The arguments are not a JSON object (malformed JSON string, say).
    MalformedArguments,
    /// The arguments break the schema.
    InvalidArguments {
        /// The errors, in report order.
        errors: ArgumentErrors,
    },
    /// The tool has no handler.
    NoHandler,
    /// The handler returned an error.
    HandlerError,
    /// The handler panicked; the registry keeps serving.
    Panicked,
    /// The handler took longer than the time limit and was cancelled.
    TimedOut,
    /// The handler's output breaks its own output schema; it was not sent.
    InvalidOutput,
}

/// The result of one dispatch: the provider-neutral result, how it ended, and the repairs
/// lenient mode made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Dispatched {
    /// The tool's original name, when the call named a known tool.
    pub tool: Option<String>,
    /// The result for the model.
    pub result: ToolResult,
    /// How it ended.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Repairs made in lenient mode.
    pub repairs: Vec<Repair>,
    /// Changes made reading the call back through the export it answers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_back: Vec<ReadBackStep>,
    /// Who to answer: the call's shape, id and name as sent.
    #[serde(skip)]
    reply_to: ReplyTo,
}

/// What a reply needs from the call it answers, kept so that [`Dispatched::reply`] works after
/// [`dispatch_owned`] consumed the call.
#[derive(Debug, Clone, PartialEq)]
struct ReplyTo {
    format: Target,
    id: Option<String>,
    name: String,
}

impl ReplyTo {
    fn of(call: &ToolCall) -> Self {
        ReplyTo {
            format: call.format,
            id: call.id.clone(),
            name: call.name.clone(),
        }
    }
}

impl Dispatched {
    fn new(reply_to: ReplyTo, tool: Option<&str>, result: ToolResult, outcome: Outcome) -> Self {
        Dispatched {
            tool: tool.map(str::to_owned),
            result,
            outcome,
            repairs: Vec::new(),
            read_back: Vec::new(),
            reply_to,
        }
    }

    /// The result in the shape of the provider the call came from, answering the call's id:
    /// the same as [`Dispatched::render`] with the call that was dispatched.
    pub fn reply(&self) -> Value {
        render_to(
            self.reply_to.format,
            self.reply_to.id.as_deref(),
            &self.reply_to.name,
            &self.result,
            RenderOptions::default(),
        )
    }

    /// Whether MCP wants this as a JSON-RPC error rather than a tool result: only an unknown
    /// tool (MCP 2025-11-25, SEP-1303: argument errors are tool results the model can fix).
    pub fn is_protocol_error(&self) -> bool {
        matches!(self.outcome, Outcome::UnknownTool { .. })
    }

    /// The result in the shape of the provider the call came from: [`render`] of this
    /// result for `call`, with the default [`RenderOptions`].
    pub fn render(&self, call: &ToolCall) -> Value {
        render(call, &self.result, RenderOptions::default())
    }
}

/// Up to this many tools, an unknown tool's error lists them all when no name is close.
const KNOWN_TOOLS_LISTED: usize = 20;

pub use crate::provider::mcp::LATEST_MCP_VERSION;

/// A result in the shape of the provider `call` came from: Responses `function_call_output`,
/// Chat `role: "tool"` message, Anthropic `tool_result` block, Gemini `functionResponse` part,
/// or MCP `CallToolResult` for the protocol version in `options` (the latest,
/// [`LATEST_MCP_VERSION`], by default).
pub fn render(call: &ToolCall, result: &ToolResult, options: RenderOptions<'_>) -> Value {
    render_to(call.format, call.id.as_deref(), &call.name, result, options)
}

fn render_to(
    format: Target,
    id: Option<&str>,
    name: &str,
    result: &ToolResult,
    options: RenderOptions<'_>,
) -> Value {
    provider(format).render_result(id, name, result, options)
}

/// What the validation half of dispatch found, without running anything.
#[derive(Debug, Clone, Serialize)]
pub struct Checked<'r> {
    /// The tool's original name, when the call named a known tool.
    pub tool: Option<&'r str>,
    /// `Ok` when the arguments are valid; otherwise why not.
    pub outcome: Outcome,
    /// The arguments after reading back and lenient repairs; `None` when neither changed
    /// anything (the call's own arguments stand).
    pub arguments: Option<Value>,
    /// Repairs made in lenient mode.
    pub repairs: Vec<Repair>,
    /// Changes made reading the call back through the export it answers
    /// ([`DispatchOptions::read_back`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_back: Vec<ReadBackStep>,
    /// The message for the model when the call is not valid.
    pub message: Option<String>,
    /// The tool the call named.
    #[serde(skip)]
    registered: Option<&'r Registered>,
}

/// Two checks are equal when they say the same; the tool is compared by name.
impl PartialEq for Checked<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.tool == other.tool
            && self.outcome == other.outcome
            && self.arguments == other.arguments
            && self.repairs == other.repairs
            && self.read_back == other.read_back
            && self.message == other.message
    }
}

/// Checks a call without running it: known tool, arguments a JSON object, arguments valid
/// against the full original schema (after lenient repairs, when asked).
pub fn check_call<'r>(
    registry: &'r Registry,
    call: &ToolCall,
    options: &DispatchOptions,
) -> Checked<'r> {
    let Some(registered) = registry.resolve(&call.name) else {
        let suggestions = closest_names(registry, &call.name);
        let hint = if !suggestions.is_empty() {
            format!(
                " Did you mean {}?",
                suggestions
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            known_tools_hint(registry)
        };
        return Checked {
            registered: None,
            tool: None,
            outcome: Outcome::UnknownTool { suggestions },
            arguments: None,
            repairs: Vec::new(),
            read_back: Vec::new(),
            message: Some(format!("Unknown tool: {}.{hint}", call.name)),
        };
    };
    let name = registered.tool().name.as_str();
    let arguments = match &call.arguments {
        Ok(arguments) => arguments,
        Err(why) => {
            return Checked {
                registered: Some(registered),
                tool: Some(name),
                outcome: Outcome::MalformedArguments,
                arguments: None,
                repairs: Vec::new(),
                read_back: Vec::new(),
                message: Some(format!("Cannot call {name}: {why}.")),
            };
        }
    };
    let schema = &registered.tool().input_schema;
    let validator = registered.input_validator();
    // The valid path borrows the call's arguments: no copy unless reading back or lenient
    // mode changes them.
    let (read, read_back) = read_back(options, registered.tool(), validator, arguments);
    let current = read.as_ref().unwrap_or(arguments);
    let (repaired, repairs) = if options.lenient && !validator.is_valid(current) {
        let (fixed, repairs) = repair(validator, schema, current.clone());
        (Some(fixed), repairs)
    } else {
        (read, Vec::new())
    };
    match check(validator, schema, repaired.as_ref().unwrap_or(arguments)) {
        Ok(()) => Checked {
            registered: Some(registered),
            tool: Some(name),
            outcome: Outcome::Ok,
            arguments: repaired,
            repairs,
            read_back,
            message: None,
        },
        Err(errors) => Checked {
            registered: Some(registered),
            tool: Some(name),
            message: Some(errors.message(name, options.message_limit)),
            outcome: Outcome::InvalidArguments { errors },
            arguments: None,
            repairs,
            read_back,
        },
    }
}

/// Reads invalid `arguments` of `tool` back through the export the call answers,
/// where the errors are: the arguments read back (`None` when nothing changed) and the
/// changes.
fn read_back(
    options: &DispatchOptions,
    tool: &Tool,
    validator: &jsonschema::Validator,
    arguments: &Value,
) -> (Option<Value>, Vec<ReadBackStep>) {
    let Some(read_back) = options.read_back.as_deref() else {
        return (None, Vec::new());
    };
    if !read_back.answers(&tool.name) || validator.is_valid(arguments) {
        return (None, Vec::new());
    }
    let Err(errors) = check(validator, &tool.input_schema, arguments) else {
        return (None, Vec::new());
    };
    let wrong: Vec<&str> = errors.errors.iter().map(|e| e.pointer.as_str()).collect();
    let mut read = arguments.clone();
    let steps = read_back.read(tool, &mut read, &wrong);
    if steps.is_empty() {
        (None, steps)
    } else {
        (Some(read), steps)
    }
}

/// Dispatches one call. Never fails: every problem becomes an error result the model can
/// read, and the registry keeps serving.
///
/// The handler gets its own copy of the arguments; [`dispatch_owned`] moves them
/// instead, which saves a deep copy of large arguments. The call is checked when this
/// function is called; the future runs the handler.
pub fn dispatch<'a>(
    registry: &'a Registry,
    call: &ToolCall,
    options: &'a DispatchOptions,
) -> impl Future<Output = Dispatched> + Send + 'a {
    let mut checked = check_call(registry, call, options);
    let reply_to = ReplyTo::of(call);
    let arguments = checked.arguments.take().or_else(|| {
        (checked.outcome == Outcome::Ok)
            .then(|| call.arguments.as_ref().ok().cloned())
            .flatten()
    });
    run(checked, arguments, reply_to, options)
}

/// [`dispatch`] for a call the caller no longer needs: the arguments are
/// validated in place and then moved into the handler. Answer the call with
/// [`Dispatched::reply`].
pub fn dispatch_owned<'a>(
    registry: &'a Registry,
    call: ToolCall,
    options: &'a DispatchOptions,
) -> impl Future<Output = Dispatched> + Send + 'a {
    let mut checked = check_call(registry, &call, options);
    let ToolCall {
        format,
        id,
        name,
        arguments,
    } = call;
    let reply_to = ReplyTo { format, id, name };
    let arguments = match (checked.arguments.take(), checked.outcome == Outcome::Ok) {
        (Some(repaired), _) => Some(repaired),
        (None, true) => arguments.ok(),
        (None, false) => None,
    };
    run(checked, arguments, reply_to, options)
}

/// Runs the handler of a checked call with its (validated) arguments.
///
/// Not `async fn`s, this one and the two above: an `async fn` keeps its arguments beside the
/// future it awaits, and a server keeps this future for each call in flight. What needs no
/// waiting is done before the future is made.
fn run<'a>(
    checked: Checked<'a>,
    arguments: Option<Value>,
    reply_to: ReplyTo,
    options: &'a DispatchOptions,
) -> impl Future<Output = Dispatched> + Send + 'a {
    let tool = checked.tool;
    if checked.outcome != Outcome::Ok {
        let message = checked.message.unwrap_or_default();
        let mut dispatched =
            Dispatched::new(reply_to, tool, ToolResult::error(message), checked.outcome);
        dispatched.repairs = checked.repairs;
        dispatched.read_back = checked.read_back;
        return Either::Left(ready(dispatched));
    }
    let (Some(registered), Some(arguments)) = (checked.registered, arguments) else {
        return Either::Left(ready(Dispatched::new(
            reply_to,
            tool,
            ToolResult::error("Internal error."),
            Outcome::NoHandler,
        )));
    };
    let name = registered.tool().name.as_str();
    let Some(handler) = registered.handler() else {
        tracing::error!(tool = %name, "tool has no handler");
        return Either::Left(ready(Dispatched::new(
            reply_to,
            Some(name),
            ToolResult::error(format!("{name} is not available right now.")),
            Outcome::NoHandler,
        )));
    };
    let ctx = CallContext {
        cancellation: options.cancellation.clone().unwrap_or_default(),
        call_id: reply_to.id.clone(),
        data: options.data.clone(),
        meta: options.meta.clone(),
        client: options.client.clone(),
    };
    let cancellation = ctx.cancellation.clone();
    // The handler's future is boxed already, so the guard around it needs no box of its own.
    let mut run = AssertUnwindSafe(handler.call(arguments, ctx)).catch_unwind();
    Either::Right(async move {
        // Most handlers answer on their first poll: the timer (which wakes a helper thread
        // when it is created and dropped) is only started for those that do not.
        let finished = match (&mut run).now_or_never() {
            Some(done) => Either::Left((done, ())),
            None => match select(run, futures_timer::Delay::new(options.time_limit)).await {
                Either::Left((done, _)) => Either::Left((done, ())),
                Either::Right(((), _)) => Either::Right(((), ())),
            },
        };
        let (mut result, outcome) = match finished {
            Either::Left((Ok(Ok(result)), _)) => (result, Outcome::Ok),
            Either::Left((Ok(Err(ToolError::ForModel(message))), _)) => {
                (ToolResult::error(message), Outcome::HandlerError)
            }
            Either::Left((Ok(Err(ToolError::Internal(details))), _)) => {
                tracing::error!(tool = %name, error = %details, "tool failed");
                (
                    ToolResult::error(format!(
                        "{name} failed with an internal error. Try again later."
                    )),
                    Outcome::HandlerError,
                )
            }
            Either::Left((Err(panic), _)) => {
                let details = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "non-string panic payload".to_owned());
                tracing::error!(tool = %name, panic = %details, "tool panicked");
                (
                    ToolResult::error(format!(
                        "{name} failed with an internal error. Try again later."
                    )),
                    Outcome::Panicked,
                )
            }
            Either::Right(((), _)) => {
                cancellation.cancel();
                tracing::warn!(tool = %name, limit = ?options.time_limit, "tool timed out");
                (
                    ToolResult::error(format!(
                        "{name} did not finish within {} and was stopped. Try again, perhaps with a narrower request.",
                        crate::wording::human_duration(options.time_limit)
                    )),
                    Outcome::TimedOut,
                )
            }
        };
        let mut outcome = outcome;
        if outcome == Outcome::Ok
            && !result.is_error
            && let Some(problem) = output_problem(registered, &result)
        {
            tracing::error!(tool = %name, problem = %problem, "tool output breaks its output schema; not sent");
            result = ToolResult::error(format!(
                "{name} failed with an internal error. Try again later."
            ));
            outcome = Outcome::InvalidOutput;
        }
        if !checked.repairs.is_empty() {
            result
                .meta
                .insert("toolpact/repairs".to_owned(), json!(checked.repairs));
        }
        if !checked.read_back.is_empty() {
            result
                .meta
                .insert("toolpact/readBack".to_owned(), json!(checked.read_back));
        }
        let mut dispatched = Dispatched::new(reply_to, Some(name), result, outcome);
        dispatched.repairs = checked.repairs;
        dispatched.read_back = checked.read_back;
        dispatched
    })
}

/// [`dispatch`] on the current thread, for callers without an executor.
pub fn dispatch_blocking(
    registry: &Registry,
    call: &ToolCall,
    options: &DispatchOptions,
) -> Dispatched {
    futures::executor::block_on(dispatch(registry, call, options))
}

/// When no name is close: the tools there are, so that the model can pick one, or how
/// many there are when the list would be too long to help.
fn known_tools_hint(registry: &Registry) -> String {
    let names: Vec<String> = registry.tools().map(|t| format!("`{}`", t.name)).collect();
    match names.len() {
        0 => " There are no tools.".to_owned(),
        n if n <= KNOWN_TOOLS_LISTED => format!(" The tools are {}.", names.join(", ")),
        n => format!(" None of the {n} tools has a similar name."),
    }
}

/// Up to three known names closest to `name`, by the measure every suggestion uses.
fn closest_names(registry: &Registry, name: &str) -> Vec<String> {
    crate::wording::closest_names(name, registry.tools().map(|t| t.name.as_str()), 3)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Why a successful result may not be sent: a tool with an output schema must return
/// conforming structured content (MCP 2025-06-18 and later).
fn output_problem(registered: &Registered, result: &ToolResult) -> Option<String> {
    let validator = registered.output_validator()?;
    let Some(structured) = &result.structured else {
        return Some(
            "the tool declares an output schema but returned no structured content".to_owned(),
        );
    };
    let errors: Vec<String> = validator
        .iter_errors(structured)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        None
    } else {
        Some(errors.join("; "))
    }
}
