//! The path after the raw byte string is code.

pub fn bytes() -> &'static [u8] {
    let _ = br#"a quote " inside"#;
    crate::plain::plain()
}
