//! Text as the model understands it rather than as it is spelled: Unicode NFKC, lower case,
//! invisible separators removed, look-alike letters of other scripts folded to their Latin
//! skeleton (Unicode TR39), terminal escapes and padding turned into single spaces.

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// Whether `c` is dropped before matching: it has no width, or it is a formatting or
/// encoding character that splits words without being seen (soft hyphen, zero-width
/// characters, word joiner, byte-order mark, bidirectional controls, variation selectors,
/// Unicode tag characters, the Mongolian vowel separator).
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{E0000}'..='\u{E007F}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// Whether `c` shows as blank space: fillers and separators that pad a payload out of view.
fn is_blank(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
        )
}

/// The Latin letter a look-alike letter of another script stands for, if it stands for one.
fn latin_skeleton(c: char) -> Option<char> {
    let mut buf = [0u8; 4];
    let one = |s: &str| {
        let mut it = unicode_security::skeleton(s);
        match (it.next(), it.next()) {
            (Some(x), None) if x.is_ascii_alphanumeric() => Some(x.to_ascii_lowercase()),
            _ => None,
        }
    };
    // The lower case first: a capital iota's skeleton is `l`, a small iota's is `i`.
    let lower = c.to_lowercase().next().unwrap_or(c);
    one(lower.encode_utf8(&mut buf)).or_else(|| one(c.encode_utf8(&mut buf)))
}

/// Whether a run of letters is in a script whose letters are not folded: CJK, Hangul and
/// kana never stand for Latin letters.
fn is_east_asian(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{3040}'..='\u{30FF}' | '\u{3130}'..='\u{318F}' | '\u{3400}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}')
}

/// Appends the normalised form of `text` to `out` (cleared first): lower case, NFKC,
/// invisible characters removed, blanks and escape sequences collapsed to one space,
/// look-alike letters folded to Latin. ASCII text takes a fast path without NFKC.
pub(crate) fn normalize_into(text: &str, out: &mut String) {
    out.clear();
    out.reserve(text.len());
    let mut last_blank = false;
    let mut push = |out: &mut String, c: char| {
        if is_blank(c) || c.is_control() {
            let newline = matches!(c, '\n' | '\u{2028}' | '\u{2029}');
            if !last_blank {
                out.push(if newline { '\n' } else { ' ' });
            } else if newline && out.ends_with(' ') {
                out.pop();
                out.push('\n');
            }
            last_blank = true;
        } else {
            out.push(c);
            last_blank = false;
        }
    };
    if text.is_ascii() {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == 0x1B {
                i = skip_escape(bytes, i);
                push(out, ' ');
                continue;
            }
            push(out, b.to_ascii_lowercase() as char);
            i += 1;
        }
        return;
    }
    // Most text is already in NFKC once its invisible characters are gone: a quick check
    // says so without composing anything, and the characters are then read as they are.
    let visible = || text.chars().filter(|c| !is_invisible(*c));
    if is_nfkc_quick(visible()) == IsNormalized::Yes {
        fold(visible().peekable(), out, &mut push);
    } else {
        fold(visible().nfkc().peekable(), out, &mut push);
    }
}

/// Appends `chars`, characters in NFKC, to `out` through `push`, folded: ANSI escape
/// sequences to a space, ASCII to lower case, look-alike letters to their Latin skeleton,
/// other letters to lower case.
fn fold(
    mut chars: std::iter::Peekable<impl Iterator<Item = char>>,
    out: &mut String,
    push: &mut impl FnMut(&mut String, char),
) {
    while let Some(c) = chars.next() {
        if c == '\u{1B}' {
            // An ANSI sequence: ESC, `[`, parameters, one final letter.
            if chars.peek() == Some(&'[') {
                chars.next();
                while let Some(&n) = chars.peek() {
                    chars.next();
                    if n.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            push(out, ' ');
            continue;
        }
        if c.is_ascii() {
            push(out, c.to_ascii_lowercase());
        } else if c.is_alphabetic() && !is_east_asian(c) {
            match latin_skeleton(c) {
                Some(l) => push(out, l),
                None => c.to_lowercase().for_each(|l| push(out, l)),
            }
        } else {
            c.to_lowercase().for_each(|l| push(out, l));
        }
    }
}

/// Where an ANSI escape that starts at `i` ends.
fn skip_escape(bytes: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    if bytes.get(j) == Some(&b'[') {
        j += 1;
        while j < bytes.len() {
            let b = bytes[j];
            j += 1;
            if b.is_ascii_alphabetic() {
                break;
            }
        }
    }
    j
}

/// The normalised form of `text` (see [`normalize_into`]).
pub(crate) fn normalize(text: &str) -> String {
    let mut out = String::new();
    normalize_into(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_what_hides_words() {
        assert_eq!(
            normalize("Ig\u{ad}nore pre\u{200b}vious"),
            "ignore previous"
        );
        assert_eq!(normalize("\u{456}gn\u{43e}r\u{435}"), "ignore");
        assert_eq!(
            normalize("<\u{399}\u{39c}P\u{39f}R\u{3a4}\u{391}N\u{3a4}>"),
            "<important>"
        );
        assert_eq!(normalize("\u{ff29}\u{ff27}\u{ff2e}"), "ign");
        assert_eq!(normalize("a\u{3164}\u{3164}  b\r\u{1b}[1Ac"), "a b c");
        assert_eq!(normalize("Do\u{feff} not"), "do not");
        assert_eq!(normalize("查询 Zürich"), "查询 zürich");
        // Text in NFKC is read as it is; text that is not, or that only becomes composable
        // once a hidden character is gone, is composed first.
        assert_eq!(normalize("caf\u{e9} \u{2014} ok"), "caf\u{e9} \u{2014} ok");
        assert_eq!(normalize("cafe\u{301}"), "caf\u{e9}");
        assert_eq!(normalize("cafe\u{200b}\u{301}"), "caf\u{e9}");
        assert_eq!(normalize("\u{fb01}le"), "file");
    }
}
