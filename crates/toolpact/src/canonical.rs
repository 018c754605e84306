//! The canonical form of a tool's whole contract, and its hash: what a lock file pins and
//! what two versions of a tool are compared in.

use crate::tool::{Annotations, Icon, Tool};
use serde_json::{Map, Number, Value};
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// The prefix of every contract hash.
pub const HASH_PREFIX: &str = "sha256:";

/// Integers up to this magnitude are exact in a double and written without a fraction.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_992.0;

/// [`MAX_SAFE_INTEGER`] as an integer. Integers are compared with it as integers: cast to a
/// double first, 2^53 + 1 rounds down to 2^53 and would pass for exact.
const MAX_EXACT: u64 = 1 << 53;

/// The tool as a JSON object with every field of its contract, before canonicalisation.
///
/// Fields the tool knows win over a field of the same name in [`Tool::extra`], as they do when
/// the tool is serialised.
fn contract(tool: &Tool) -> Value {
    let mut map = tool.extra.clone();
    map.insert("name".to_owned(), Value::String(tool.name.clone()));
    insert_text(&mut map, "title", tool.title.as_deref());
    insert_text(&mut map, "description", tool.description.as_deref());
    map.insert("inputSchema".to_owned(), tool.input_schema.clone());
    if let Some(output) = &tool.output_schema {
        map.insert("outputSchema".to_owned(), output.clone());
    }
    if let Some(annotations) = &tool.annotations {
        map.insert("annotations".to_owned(), annotations_value(annotations));
    }
    if let Some(icons) = &tool.icons {
        map.insert(
            "icons".to_owned(),
            Value::Array(icons.iter().map(icon_value).collect()),
        );
    }
    if let Some(meta) = &tool.meta {
        map.insert("_meta".to_owned(), Value::Object(meta.clone()));
    }
    Value::Object(map)
}

fn insert_text(map: &mut Map<String, Value>, key: &str, text: Option<&str>) {
    if let Some(text) = text {
        map.insert(key.to_owned(), Value::String(text.to_owned()));
    }
}

fn insert_flag(map: &mut Map<String, Value>, key: &str, flag: Option<bool>) {
    if let Some(flag) = flag {
        map.insert(key.to_owned(), Value::Bool(flag));
    }
}

fn annotations_value(a: &Annotations) -> Value {
    let mut map = a.extra.clone();
    insert_text(&mut map, "title", a.title.as_deref());
    insert_flag(&mut map, "readOnlyHint", a.read_only_hint);
    insert_flag(&mut map, "destructiveHint", a.destructive_hint);
    insert_flag(&mut map, "idempotentHint", a.idempotent_hint);
    insert_flag(&mut map, "openWorldHint", a.open_world_hint);
    Value::Object(map)
}

fn icon_value(icon: &Icon) -> Value {
    let mut map = icon.extra.clone();
    map.insert("src".to_owned(), Value::String(icon.src.clone()));
    insert_text(&mut map, "mimeType", icon.mime_type.as_deref());
    if let Some(sizes) = &icon.sizes {
        map.insert(
            "sizes".to_owned(),
            Value::Array(sizes.iter().cloned().map(Value::String).collect()),
        );
    }
    insert_text(&mut map, "theme", icon.theme.as_deref());
    Value::Object(map)
}

/// The canonical value of any JSON: strings in NFC, numbers in one form, object keys in
/// UTF-16 order (`serde_json` keeps the order keys are inserted in, so the value prints in
/// canonical order, pretty or not).
fn canonicalize(value: &Value) -> Value {
    match value {
        Value::Null | Value::Bool(_) => value.clone(),
        Value::Number(n) => Value::Number(canonical_number(n)),
        Value::String(s) => Value::String(nfc(s)),
        Value::Array(items) => Value::Array(items.iter().map(canonicalize).collect()),
        Value::Object(map) => {
            let mut seen: HashMap<String, usize> = HashMap::with_capacity(map.len());
            let normalized: Vec<String> = map.keys().map(|k| nfc(k)).collect();
            for key in &normalized {
                *seen.entry(key.clone()).or_default() += 1;
            }
            let mut members: Vec<(String, Value)> = map
                .iter()
                .zip(normalized)
                .map(|((raw, v), key)| {
                    let key = if seen.get(&key).copied().unwrap_or(0) > 1 {
                        raw.clone()
                    } else {
                        key
                    };
                    (key, canonicalize(v))
                })
                .collect();
            members.sort_by(|(a, _), (b, _)| utf16_cmp(a, b));
            Value::Object(members.into_iter().collect())
        }
    }
}

/// The canonical contract of a tool as a value: [`canonicalize`] of [`contract`], what
/// [`canonical_json`] writes out.
pub(crate) fn canonical_contract(tool: &Tool) -> Value {
    canonicalize(&contract(tool))
}

/// The tool with every string in NFC and every number in canonical form: the same contract,
/// the same hash, and the tool a lock file gives back when it is read.
pub(crate) fn canonical_tool(tool: &Tool) -> Tool {
    Tool {
        name: nfc(&tool.name),
        title: tool.title.as_deref().map(nfc),
        description: tool.description.as_deref().map(nfc),
        input_schema: canonicalize(&tool.input_schema),
        output_schema: tool.output_schema.as_ref().map(canonicalize),
        annotations: tool.annotations.as_ref().map(|a| Annotations {
            title: a.title.as_deref().map(nfc),
            read_only_hint: a.read_only_hint,
            destructive_hint: a.destructive_hint,
            idempotent_hint: a.idempotent_hint,
            open_world_hint: a.open_world_hint,
            extra: canonical_map(&a.extra),
        }),
        icons: tool.icons.as_ref().map(|icons| {
            icons
                .iter()
                .map(|icon| Icon {
                    src: nfc(&icon.src),
                    mime_type: icon.mime_type.as_deref().map(nfc),
                    sizes: icon
                        .sizes
                        .as_ref()
                        .map(|sizes| sizes.iter().map(|s| nfc(s)).collect()),
                    theme: icon.theme.as_deref().map(nfc),
                    extra: canonical_map(&icon.extra),
                })
                .collect()
        }),
        meta: tool.meta.as_ref().map(canonical_map),
        extra: canonical_map(&tool.extra),
    }
}

fn canonical_map(map: &Map<String, Value>) -> Map<String, Value> {
    match canonicalize(&Value::Object(map.clone())) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The canonical JSON text of any value (see [`canonical_json`]), for comparing
/// and showing parts of contracts.
pub(crate) fn to_canonical_string(value: &Value) -> String {
    let mut out = String::new();
    write_value(&canonicalize(value), &mut out);
    out
}

/// The canonical form of a tool's whole contract: its canonical JSON text. Two tools have the
/// same canonical form exactly when they have the same contract; [`contract_hash`] is the
/// hash of this text.
///
/// # The contract
///
/// A tool's contract is everything a model or a client receives: the tool written as an MCP
/// `Tool` object with `name`, `title`, `description`, `inputSchema` (every property and its
/// description), `outputSchema`, `annotations`, `_meta`, `icons` and every field toolpact does
/// not know, as it was read. A field that is absent stays absent; nothing is filled in with
/// a default, so `"annotations": {}` and no `annotations` are two contracts.
///
/// # The canonical form
///
/// The form is the JSON Canonicalization Scheme ([RFC 8785], "JCS") with one addition,
/// Unicode normalisation:
///
/// 1. **Strings**, both values and object keys, are normalised to Unicode NFC ([UAX #15]), so
///    that `"café"` typed with a combining accent and with a precomposed `é` are the same text,
///    as they look the same to every reader. When two keys of one object become the same
///    under NFC, those keys are kept as written: normalising them would merge two members
///    and give two different contracts one form.
/// 2. **Numbers** are IEEE 754 doubles written as ECMAScript's `Number.prototype.toString`
///    writes them ([RFC 8785 §3.2.2.3]): `1`, `1.0`, `1e0` and `10e-1` are all `1`;
///    `-0` is `0`; `1e21` is `1e+21`; `0.000001` stays `0.000001` and `1e-7` stays `1e-7`.
///    An integer beyond 2^53 is rounded to the nearest double, as every JavaScript client
///    reads it.
/// 3. **Object keys** are sorted by their UTF-16 code units ([RFC 8785 §3.2.3]); arrays keep
///    their order (the order of `enum` values or `required` names is part of what the model
///    reads).
/// 4. **No whitespace** between tokens. Strings escape `"` and `\`, write U+0008, U+0009,
///    U+000A, U+000C and U+000D as `\b`, `\t`, `\n`, `\f` and `\r`, the other control
///    characters below U+0020 as `\u00xx` with lowercase hex, and every other character as
///    itself in UTF-8 ([RFC 8785 §3.2.2.2]).
///
/// The hash is the SHA-256 of the canonical form's UTF-8 bytes, written `sha256:` and 64
/// lowercase hex digits. Anyone can check it without toolpact: NFC-normalise the strings of
/// the contract kept in a lock file, canonicalise it with any RFC 8785 implementation, and hash.
///
/// [RFC 8785]: https://www.rfc-editor.org/rfc/rfc8785
/// [RFC 8785 §3.2.2.2]: https://www.rfc-editor.org/rfc/rfc8785#section-3.2.2.2
/// [RFC 8785 §3.2.2.3]: https://www.rfc-editor.org/rfc/rfc8785#section-3.2.2.3
/// [RFC 8785 §3.2.3]: https://www.rfc-editor.org/rfc/rfc8785#section-3.2.3
/// [UAX #15]: https://unicode.org/reports/tr15/
pub fn canonical_json(tool: &Tool) -> String {
    to_canonical_string(&contract(tool))
}

/// The hash of a tool's contract: `sha256:` and the hex SHA-256 of its [`canonical_json`].
pub fn contract_hash(tool: &Tool) -> String {
    hash_canonical(&canonical_json(tool))
}

/// `sha256:` and the hex SHA-256 of text that is already canonical.
fn hash_canonical(canonical: &str) -> String {
    let digest = Sha256::digest(canonical.as_bytes());
    let mut out = String::with_capacity(HASH_PREFIX.len() + 64);
    out.push_str(HASH_PREFIX);
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Orders two strings by their UTF-16 code units, as RFC 8785 sorts object keys.
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The text in Unicode NFC, as names and every other string are in the canonical form.
pub fn nfc(s: &str) -> String {
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => s.to_owned(),
        _ => s.nfc().collect(),
    }
}

/// The number as the double a JSON reader sees: integers that a double holds exactly are
/// kept as integers (`1.0` becomes `1`), every other value is a double.
fn canonical_number(n: &Number) -> Number {
    if let Some(i) = n.as_i64()
        && i.unsigned_abs() <= MAX_EXACT
    {
        return Number::from(i);
    }
    if let Some(u) = n.as_u64()
        && u <= MAX_EXACT
    {
        return Number::from(u);
    }
    let x = n.as_f64().unwrap_or(0.0);
    if x.fract() == 0.0 && x.abs() <= MAX_SAFE_INTEGER {
        // Exact: the value is an integer no larger than 2^53.
        return Number::from(x as i64);
    }
    Number::from_f64(x).unwrap_or_else(|| Number::from(0))
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
        }
    }
}

fn write_number(n: &Number, out: &mut String) {
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= MAX_EXACT) {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64().filter(|u| *u <= MAX_EXACT) {
        let _ = write!(out, "{u}");
    } else {
        out.push_str(&ecmascript_number(n.as_f64().unwrap_or(0.0)));
    }
}

/// A double as ECMAScript's `Number.prototype.toString` writes it (ECMA-262, Number::toString,
/// radix 10), which RFC 8785 adopts. JSON has no NaN or infinity, so neither can reach here.
pub fn ecmascript_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, n) = shortest_digits(x.abs());
    let k = digits.len() as i64;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let e_sign = if e < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        if rest.is_empty() {
            format!("{first}e{e_sign}{}", e.abs())
        } else {
            format!("{first}.{rest}e{e_sign}{}", e.abs())
        }
    };
    format!("{sign}{body}")
}

/// The shortest decimal digits that read back as `x` (positive and finite), the one closest
/// to `x` when several are as short, and `n` such that `x` is 0.digits × 10^n.
///
/// The digits come from `serde_json`'s float writer (the Ryū algorithm), which picks the
/// closest of the shortest candidates as ECMAScript requires; Rust's own `{:e}` may pick
/// another (it writes 1424953923781206.3 where ECMAScript writes 1424953923781206.2).
fn shortest_digits(x: f64) -> (String, i64) {
    let text = Number::from_f64(x).map_or_else(|| "0".to_owned(), |n| n.to_string());
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap_or(0)),
        None => (text.as_str(), 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0').to_owned();
    let point = int.len() as i64 - leading as i64;
    if digits.is_empty() {
        return ("0".to_owned(), 1);
    }
    (digits, point + exponent)
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_written_as_ecmascript_writes_them() {
        // The examples of RFC 8785, Appendix B, by their IEEE 754 bit patterns.
        let cases: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for &(bits, expected) in cases {
            let x = f64::from_bits(bits);
            assert_eq!(ecmascript_number(x), expected, "{bits:#018x}");
            let value = Value::Number(Number::from_f64(x).unwrap());
            assert_eq!(to_canonical_string(&value), expected, "{bits:#018x}");
        }
    }

    #[test]
    fn the_rfc_8785_example_object_is_canonical() {
        // RFC 8785 §3.2.2, the example input and its canonical output.
        let input: Value = serde_json::from_str(
            r#"{
              "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
              "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
              "literals": [null, true, false]
            }"#,
        )
        .unwrap();
        assert_eq!(
            to_canonical_string(&input),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    #[test]
    fn keys_sort_by_utf16_code_units() {
        // RFC 8785 §3.2.3: U+1F600 (a surrogate pair, D83D DE00) sorts before U+FF41.
        // (RFC 8785's own example uses U+FB33, which NFC decomposes; U+FF41 has no canonical
        // decomposition and sorts the same way.)
        let value = json!({"\u{ff41}": 1, "\u{1f600}": 2, "a": 3, "\r": 4, "1": 5});
        let text = to_canonical_string(&value);
        let order: Vec<&str> = ["\\r", "\"1\"", "\"a\"", "\u{1f600}", "\u{ff41}"].to_vec();
        let mut positions: Vec<usize> = order.iter().map(|k| text.find(k).unwrap()).collect();
        let sorted = {
            let mut p = positions.clone();
            p.sort();
            p
        };
        assert_eq!(positions, sorted, "{text}");
        positions.dedup();
        assert_eq!(positions.len(), 5);
    }

    #[test]
    fn strings_and_keys_are_nfc() {
        let decomposed = json!({"cafe\u{301}": "cre\u{300}me"});
        let composed = json!({"caf\u{e9}": "cr\u{e8}me"});
        assert_eq!(
            to_canonical_string(&decomposed),
            to_canonical_string(&composed)
        );
        assert_eq!(to_canonical_string(&composed), "{\"café\":\"crème\"}");
    }

    #[test]
    fn keys_that_merge_under_nfc_are_kept_as_written() {
        let both = json!({"cafe\u{301}": 1, "caf\u{e9}": 2});
        let canonical = canonicalize(&both);
        assert_eq!(canonical.as_object().unwrap().len(), 2);
        let one = json!({"caf\u{e9}": 2});
        assert_ne!(to_canonical_string(&both), to_canonical_string(&one));
    }

    #[test]
    fn integral_numbers_have_one_form() {
        let forms: Vec<Value> = ["1", "1.0", "1e0", "10e-1", "0.1e1"]
            .iter()
            .map(|t| serde_json::from_str(t).unwrap())
            .collect();
        for form in &forms {
            assert_eq!(to_canonical_string(form), "1");
            assert_eq!(canonicalize(form), json!(1));
        }
        assert_eq!(to_canonical_string(&json!(-0.0)), "0");
        assert_eq!(
            to_canonical_string(&json!(u64::MAX)),
            "18446744073709552000"
        );
        assert_eq!(to_canonical_string(&json!(-5)), "-5");
    }

    #[test]
    fn integers_past_2_pow_53_are_the_double_a_reader_sees() {
        // 2^53 + 1 is no double: a JavaScript client reads 2^53. Found by comparing hashes
        // with the `rfc8785` package (scripts/interop/check_canonical.py).
        for (text, canonical) in [
            ("9007199254740992", "9007199254740992"),
            ("9007199254740993", "9007199254740992"),
            ("-9007199254740993", "-9007199254740992"),
            ("9007199254740995", "9007199254740996"),
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(to_canonical_string(&value), canonical, "{text}");
            assert_eq!(
                to_canonical_string(&canonicalize(&value)),
                canonical,
                "{text}"
            );
        }
    }

    #[test]
    fn control_characters_are_escaped_as_jcs_does() {
        let value = json!("a\u{1}\u{8}\t\n\u{c}\r\u{1f}\u{7f}\u{2028}");
        assert_eq!(
            to_canonical_string(&value),
            "\"a\\u0001\\b\\t\\n\\f\\r\\u001f\u{7f}\u{2028}\""
        );
    }

    #[test]
    fn the_contract_is_the_tool_as_serialised() {
        let text = r#"{
            "name": "t", "title": "T", "description": "d",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"},
            "annotations": {"title": "A", "readOnlyHint": true, "destructiveHint": false,
                            "idempotentHint": true, "openWorldHint": false, "x-hint": 1},
            "icons": [{"src": "data:,", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark", "x": 2}],
            "_meta": {"k": "v"},
            "execution": {"taskSupport": "optional"}
        }"#;
        let tool: Tool = serde_json::from_str(text).unwrap();
        let serialised = serde_json::to_value(&tool).unwrap();
        assert_eq!(contract(&tool), serialised);
        assert_eq!(
            canonical_json(&tool),
            to_canonical_string(&serde_json::from_str(text).unwrap())
        );
    }

    #[test]
    fn the_hash_is_sha256_of_the_canonical_bytes() {
        // SHA-256 of the empty string and of "abc" (FIPS 180-2 test vectors).
        assert_eq!(
            hash_canonical(""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hash_canonical("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
