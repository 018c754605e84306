//! The registry, on top of handlers and data.

use super::handler::{self as handlers, Handler};

pub struct Registry(pub Vec<Handler>, crate::data::Data);

pub fn first(registry: &Registry) -> Option<&handlers::Handler> {
    registry.0.first()
}
