//! Re-exports a child's item under another name, and a child module under another name.

pub mod shapes;

pub use shapes::Shape as Form;
