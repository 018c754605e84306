//! toolpact: define each LLM tool once, export it to every provider with a report of what
//! the provider could not express, and keep one central list of tools.
//!
//! - [`Tool`] is the neutral contract (everything an MCP tool carries).
//! - [`Catalog`] reads tools from any provider's JSON, remembering file, pointer and line.
//! - [`export`] lowers tools to a [`Target`] and returns the payload, a [`LossReport`] and
//!   the [`NameMap`] of rewritten names.
//! - [`Registry`] holds each tool once with its compiled schemas; [`TypedTool`] defines a
//!   tool from a Rust type.
//! - [`LockFile`] pins every tool's whole contract in [`canonical`] form, with its hash;
//!   [`diff()`] lists every change between two versions, breaking ones first.
//! - [`Conversation`] is one neutral history (system prompt, messages, calls, results);
//!   [`build_request`] turns it and the tools into each provider's request body, and
//!   [`Conversation::push_response`] reads each provider's response back into it.

#![deny(missing_docs)]

pub mod call;
pub mod canonical;
pub mod catalog;
pub mod conversation;
pub mod diff;
pub mod dispatch;
pub mod lock;
pub mod loss;
mod lower;
pub mod name;
pub mod registry;
mod repair;
pub mod request;
pub mod response;
pub mod result;
pub mod schema;
pub mod target;
pub mod tool;
pub mod typed;
pub mod validate;
mod wording;

pub use call::{CallError, ToolCall, parse_call, parse_calls};
pub use canonical::{canonical_json, contract_hash};
pub use catalog::{Catalog, Entry, Format, ImportError, ImportNote, Origin};
pub use conversation::{
    AssistantMessage, Conversation, Message, MessagesError, ProposedCall, Reasoning, ToolMessage,
    UserMessage, parse_messages,
};
pub use diff::{Change, ChangeClass, ChangeKind, Diff, TextChange, diff};
pub use dispatch::{
    CallContext, Cancellation, Checked, DispatchOptions, Dispatched, Handler, Outcome, ToolError,
    render,
};
pub use lock::{LockError, LockFile, LockedTool};
pub use loss::{Loss, LossKind, LossReport, Unrepresentable};
pub use name::{NameProblem, NameRule};
pub use registry::{Registered, Registry, RegistryError, SchemaProblem};
pub use repair::Repair;
pub use request::{
    ConversationError, ConversationLoss, Request, RequestError, RequestOptions, ToolChoice,
    build_request,
};
pub use response::{Reply, ResponseError, Skipped, StopKind, StopReason, read_response};
pub use result::{Content, ToolResult};
pub use target::{
    Export, ExportError, ExportOptions, Exporter, Lowered, NameMap, Named, Target, export,
};
pub use tool::{Annotations, Icon, Tool};
pub use typed::{
    Json, ToolOutput, TypedHandler, TypedTool, TypedToolError, Unstructured, schema_for, tool_of,
};
pub use validate::{ArgumentError, ArgumentErrorKind, ArgumentErrors};
pub use wording::{closest_name, closest_names, human_duration};
