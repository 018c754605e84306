//! Rules about what a definition costs in bytes and tokens.

pub mod catalog_tokens;
pub mod tool_too_large;

mod tokens;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &tool_too_large::ToolTooLarge,
    &catalog_tokens::CatalogTokens,
];

/// `12345` → `12,345`, for messages.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn groups_thousands() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(4096), "4,096");
        assert_eq!(super::thousands(1234567), "1,234,567");
    }
}
