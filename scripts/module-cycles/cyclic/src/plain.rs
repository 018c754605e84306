//! A `use` that reaches `raw`, which reaches back after a raw byte string.

use crate::raw::bytes;

pub fn plain() -> &'static [u8] {
    bytes()
}
