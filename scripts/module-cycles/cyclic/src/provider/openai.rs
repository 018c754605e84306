//! Reaches back to the module that imports it through the facade.

pub fn parse_openai() {
    crate::call::parse()
}
