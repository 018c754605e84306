//! Names an item through a facade that re-exports it by name.

use crate::provider::parse_openai;

pub fn parse() {
    parse_openai()
}
