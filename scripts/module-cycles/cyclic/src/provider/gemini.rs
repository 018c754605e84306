//! Reaches back to the module that imports it through the glob re-export.

pub fn parse_gemini() {
    crate::dispatch::dispatch()
}
