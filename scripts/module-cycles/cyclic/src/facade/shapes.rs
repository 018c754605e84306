//! Reaches back to both modules that name it through aliases.

pub struct Shape;

pub fn users() -> (crate::alias::Alias, crate::shape::Sized) {
    (crate::alias::Alias, crate::shape::Sized)
}
