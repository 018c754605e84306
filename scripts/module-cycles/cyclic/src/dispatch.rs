//! Names an item through a facade that re-exports it with a glob.

pub fn dispatch() {
    crate::provider::parse_gemini()
}
