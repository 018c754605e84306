//! A layered crate: data, then handler, then registry. The root declares and re-exports
//! every module, which is not a dependency.

mod data;
mod handler;
mod registry;

pub use data::Data;
pub use handler::Handler;
pub use registry::Registry;
