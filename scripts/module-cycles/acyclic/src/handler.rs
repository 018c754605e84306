//! Handlers, on top of data.

use crate::data::Data;

pub struct Handler(pub Data);
