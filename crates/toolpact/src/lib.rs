//! toolpact: define each LLM tool once, export it to every provider with a report of what
//! the provider could not express, and keep one central list of tools.
//!
//! - [`Tool`] is the neutral contract (everything an MCP tool carries).
//! - [`Catalog`] reads tools from any provider's JSON, remembering file, pointer and line.
//! - [`export()`] lowers tools to a [`Target`] and returns the payload, a [`LossReport`] and
//!   the [`NameMap`](name::NameMap) of rewritten names.
//! - [`Registry`] holds each tool once with its compiled schemas; [`TypedTool`] defines a
//!   tool from a Rust type.
//! - [`LockFile`] pins every tool's whole contract in [`canonical_json`] form, with its hash;
//!   [`diff()`] lists every change between two versions, breaking ones first.
//! - [`Conversation`] is one neutral history (system prompt, messages, calls, results);
//!   [`build_request`] turns it and the tools into each provider's request body, and
//!   [`push_response`] reads each provider's response back into it.
//!
//! Every public item has one path: the crate root, or one of the namespaces [`json`] (JSON
//! pointer helpers), [`schema`] (JSON Schema plumbing) and [`name`] (each provider's naming
//! rule and the map of rewritten names).

#![deny(missing_docs)]

mod call;
mod canonical;
mod catalog;
mod conversation;
mod diff;
mod dispatch;
mod exchange;
mod export;
mod handler;
pub mod json;
mod lock;
mod loss;
mod lower;
pub mod name;
pub mod parallel;
mod provider;
mod registry;
mod repair;
mod request;
mod response;
mod result;
pub mod schema;
mod tool;
mod typed;
mod validate;
mod wording;

pub use call::{CallError, ToolCall, parse_call, parse_calls};
pub use canonical::{HASH_PREFIX, canonical_json, contract_hash, nfc};
pub use catalog::{
    Catalog, Entry, ImportError, ImportNote, ItemOffsets, MAX_INPUT_BYTES, Origin, offset_in,
    position_in,
};
pub use conversation::{
    AssistantMessage, Conversation, Message, MessagesError, ProposedCall, Reasoning, ToolMessage,
    UserMessage, parse_messages,
};
pub use diff::{Change, ChangeClass, ChangeKind, Diff, TextChange, WordChange, WordOp, diff};
pub use dispatch::{
    Checked, DispatchOptions, Dispatched, LATEST_MCP_VERSION, Outcome, check_call, dispatch,
    dispatch_blocking, dispatch_owned, render,
};
pub use export::{
    Export, ExportError, Exporter, LoweredTool, Named, ReadBack, check_coherence, export,
};
pub use handler::{
    CallContext, Cancellation, ClientPeer, ClientRequestError, ElicitationAction,
    ElicitationRequest, ElicitationResult, Handler, LogLevel, Progress, Role, SamplingMessage,
    SamplingRequest, SamplingResult, ToolError,
};
pub use lock::{LOCK_KEY, LOCK_VERSION, LockError, LockFile, LockedTool, is_lock_document};
pub use loss::{Loss, LossKind, LossReport, Unrepresentable};
pub use lower::{Inverse, ReadBackStep, SourceMap};
pub use provider::{
    DescriptionCap, ExportOptions, Limits, RenderOptions, StrictLimits, Target, UnknownTarget,
};
pub use registry::{CompiledSchema, Registered, Registry, RegistryError, SchemaProblem};
pub use repair::Repair;
pub use request::{
    ConversationError, ConversationLoss, InvalidToolChoice, Request, RequestError, RequestOptions,
    ToolChoice, build_request,
};
pub use response::{
    Reply, ResponseError, Skipped, StopKind, StopReason, push_response, read_response,
};
pub use result::{Content, ToolResult};
pub use tool::{Annotations, Icon, Tool};
pub use typed::{
    Json, ToolOutput, TypedHandler, TypedTool, TypedToolError, Unstructured, schema_for, tool_of,
};
pub use validate::{
    ArgumentError, ArgumentErrorKind, ArgumentErrors, DEFAULT_MESSAGE_LIMIT, display_pointer,
};
pub use wording::{closest_name, closest_names, human_duration};
