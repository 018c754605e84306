//! What a tool's implementation is: the [`Handler`] trait over JSON arguments, the
//! [`CallContext`] it runs with, its [`Cancellation`] flag and the [`ToolError`] it may
//! return.

use crate::result::ToolResult;
use futures::future::BoxFuture;
use serde_json::Value;
use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag a handler checks to stop early; set when the call's time limit passes.
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
}

impl CallContext {
    /// The attached data, if it is a `T`.
    pub fn data<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.data.as_deref().and_then(|d| d.downcast_ref::<T>())
    }
}

impl std::fmt::Debug for CallContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("cancelled", &self.cancellation.is_cancelled())
            .field("call_id", &self.call_id)
            .field("data", &self.data.is_some())
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
