//! Imports a module under another name; what it names through that name counts.

use crate::facade::shapes as outlines;

pub struct Sized;

pub fn shape() -> outlines::Shape {
    outlines::Shape
}
