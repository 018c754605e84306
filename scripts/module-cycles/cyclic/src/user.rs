//! Depends on everything and nothing depends on it: no cycle through here.

use crate::{alias::Alias, call::parse, dispatch::dispatch, plain::plain, shape::shape};
