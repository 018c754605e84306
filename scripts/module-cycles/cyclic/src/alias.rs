//! Names an item through a re-export with `as`.

use crate::facade::Form;

pub struct Alias(pub Form);
