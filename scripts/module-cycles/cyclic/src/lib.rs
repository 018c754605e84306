//! Four cycles, each found only if one way of naming a module is resolved.

mod alias;
mod call;
mod dispatch;
mod facade;
mod plain;
mod provider;
mod raw;
mod shape;
mod user;

pub use call::parse;
