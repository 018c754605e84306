//! toolpact: define each LLM tool once, export it to every provider with a report of what
//! the provider could not express, and keep one central list of tools.
//!
//! - [`Tool`] is the neutral contract (everything an MCP tool carries).
//! - [`Catalog`] reads tools from any provider's JSON, remembering file, pointer and line.
//! - [`export()`] lowers tools to a [`Target`] and returns the payload, a [`LossReport`] and
//!   the [`NameMap`] of rewritten names.
//! - [`Registry`] holds each tool once with its compiled schemas; [`TypedTool`] defines a
//!   tool from a Rust type.
//! - [`LockFile`] pins every tool's whole contract in [`canonical`] form, with its hash;
//!   [`diff()`] lists every change between two versions, breaking ones first.
//! - [`Conversation`] is one neutral history (system prompt, messages, calls, results);
//!   [`build_request`] turns it and the tools into each provider's request body, and
//!   [`push_response`] reads each provider's response back into it.

#![deny(missing_docs)]

pub mod call;
pub mod canonical;
pub mod catalog;
pub mod conversation;
pub mod diff;
pub mod dispatch;
mod exchange;
pub mod export;
pub mod handler;
pub mod json;
pub mod lock;
pub mod loss;
mod lower;
pub mod name;
pub mod provider;
pub mod registry;
mod repair;
pub mod request;
pub mod response;
pub mod result;
pub mod schema;
pub mod tool;
pub mod typed;
pub mod validate;
mod wording;

pub use call::{CallError, ToolCall, parse_call, parse_calls};
pub use canonical::{canonical_json, contract_hash};
pub use catalog::{Catalog, Entry, ImportError, ImportNote, Origin};
pub use conversation::{
    AssistantMessage, Conversation, Message, MessagesError, ProposedCall, Reasoning, ToolMessage,
    UserMessage, parse_messages,
};
pub use diff::{Change, ChangeClass, ChangeKind, Diff, TextChange, diff};
pub use dispatch::{
    Checked, DispatchOptions, Dispatched, Outcome, check_call, dispatch, dispatch_blocking,
    dispatch_owned, render,
};
pub use export::{Export, ExportError, Exporter, LoweredTool, Named, check_coherence, export};
pub use handler::{CallContext, Cancellation, Handler, ToolError};
pub use lock::{LockError, LockFile, LockedTool};
pub use loss::{Loss, LossKind, LossReport, Unrepresentable};
pub use name::{NameMap, NameProblem, NameRule};
pub use provider::{DescriptionCap, ExportOptions, Limits, StrictLimits, Target};
pub use registry::{Registered, Registry, RegistryError, SchemaProblem};
pub use repair::Repair;
pub use request::{
    ConversationError, ConversationLoss, Request, RequestError, RequestOptions, ToolChoice,
    build_request,
};
pub use response::{
    Reply, ResponseError, Skipped, StopKind, StopReason, push_response, read_response,
};
pub use result::{Content, ToolResult};
pub use tool::{Annotations, Icon, Tool};
pub use typed::{
    Json, ToolOutput, TypedHandler, TypedTool, TypedToolError, Unstructured, schema_for, tool_of,
};
pub use validate::{ArgumentError, ArgumentErrorKind, ArgumentErrors};
pub use wording::{closest_name, closest_names, human_duration};
