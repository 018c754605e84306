//! How findings write numbers, lists and quoted text, so that every rule's message reads
//! the same way.

/// Items joined for a sentence: `a`, `a and b`, `a, b and c`.
pub(crate) fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `120000` → `120,000`, for limits and counts people read.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A short, printable excerpt of `text` for a message: at most `max` characters, with
/// control characters shown as spaces.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_lists_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(4096), "4,096");
        assert_eq!(thousands(120_000), "120,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        let l = |v: &[&str]| join(&v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(l(&[]), "");
        assert_eq!(l(&["a"]), "a");
        assert_eq!(l(&["a", "b"]), "a and b");
        assert_eq!(l(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn excerpts_are_short_and_printable() {
        assert_eq!(excerpt("a\u{1b}b", 10), "a b");
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }
}
