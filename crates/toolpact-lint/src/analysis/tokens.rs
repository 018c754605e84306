//! Token counts with OpenAI's `o200k_base` encoding (GPT-4o and later), exact and fast
//! enough for catalogs of 100,000 tools.
//!
//! The encoder first splits text with a regular expression, then runs byte-pair encoding
//! inside each piece, so a count is the sum of the counts of the pieces. The regular
//! expression is the slow part (about 12 MB/s). [`TokenCounter`] cuts the text only where
//! that expression always ends a piece, and remembers counts:
//!
//! - **Units** end before a `"` that follows an ASCII letter or digit, and before an ASCII
//!   letter or digit that follows two ASCII punctuation characters (the expression takes a
//!   run of punctuation whole, and gives a single one to the word after it), unless the
//!   first of the two is a slash after a line break (a run takes the line breaks and
//!   slashes after it and ends there, so the next punctuation goes with the word). In compact
//!   JSON a unit is a key, a string value up to its last letter or digit, or a run of
//!   punctuation such as `":"`. A tool sent to six targets repeats its descriptions six
//!   times, so long units are remembered until [`TokenCounter::forget_units`] — once per
//!   tool — and counted once.
//! - **Chunks** cut units further, also before a space that follows a non-space and
//!   precedes an ASCII letter, so that prose becomes words (` the`, ` city`). A catalog has
//!   few distinct chunks, and their counts are remembered for the whole run.
//!
//! A text may also be counted in three parts split at two unit cuts: the units do not change,
//! so neither does the sum. [`Shared`] uses this for a JSON value that recurs inside larger
//! ones (a tool's input schema, sent unchanged to most targets): the units strictly inside it
//! are counted once, and each value that holds it writes and counts only what is around
//! them. The count of an inside is remembered by its text, for the tools that repeat a
//! schema.
//!
//! The sum is exactly what the encoder returns for the whole text; unit tests hold it to
//! that. The encoding ships inside `tiktoken-rs`: nothing is downloaded.

use serde_json::Value;
use std::collections::HashMap;
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

static O200K_BASE: LazyLock<Option<CoreBPE>> = LazyLock::new(|| tiktoken_rs::o200k_base().ok());

/// Chunks up to this many bytes are remembered; longer ones are rare and counted each time.
const MAX_CACHED_CHUNK: usize = 48;

/// How many chunks are remembered at most in each of the two maps (short chunks by number,
/// longer ones by text), to bound memory on huge catalogs.
const MAX_CHUNKS: usize = 1 << 20;

/// Units longer than this are remembered until [`TokenCounter::forget_units`]; shorter
/// ones are at most a few chunks and go straight to the chunk cache.
const MIN_REMEMBERED_UNIT: usize = 32;

/// How many bytes of shared insides are remembered at most.
const MAX_INSIDE_BYTES: usize = 32 * 1024 * 1024;

/// How many units are remembered at most between two calls to `forget_units`.
const MAX_UNITS: usize = 1 << 12;

/// Counts by text. foldhash is much cheaper than SipHash on short keys, and seeded per
/// process, so that texts chosen to collide (from a server under check) cannot slow it down.
type Counts = HashMap<Box<str>, u32, foldhash::fast::RandomState>;

/// Counts by short text packed in a number ([`short_key`]): most chunks are a word and
/// its space, and a number is hashed and compared at once.
type ShortCounts = HashMap<u128, u32, foldhash::fast::RandomState>;

/// Chunks up to this many bytes are remembered by [`short_key`].
const MAX_SHORT_CHUNK: usize = 15;

/// A chunk of at most [`MAX_SHORT_CHUNK`] bytes as a number: its bytes, then its length in
/// the last byte, so that no two chunks share a key.
#[inline]
fn short_key(chunk: &[u8]) -> u128 {
    let mut key = [0u8; 16];
    if let Some(head) = key.get_mut(..chunk.len()) {
        head.copy_from_slice(chunk);
    }
    key[15] = u8::try_from(chunk.len()).unwrap_or(u8::MAX);
    u128::from_le_bytes(key)
}

/// Counts `o200k_base` tokens, remembering the chunks and units it has seen.
pub(crate) struct TokenCounter {
    bpe: &'static CoreBPE,
    short_chunks: ShortCounts,
    chunks: Counts,
    units: Counts,
    /// The insides of shared values counted so far (catalogs repeat input schemas), and
    /// their bytes.
    insides: Counts,
    inside_bytes: usize,
    /// The text around a shared value, reused from one count to the next.
    around: Vec<u8>,
}

impl TokenCounter {
    /// A counter, or `None` if the bundled encoding could not be loaded.
    pub(crate) fn new() -> Option<TokenCounter> {
        Some(TokenCounter {
            bpe: O200K_BASE.as_ref()?,
            short_chunks: ShortCounts::default(),
            chunks: Counts::default(),
            units: Counts::default(),
            insides: Counts::default(),
            inside_bytes: 0,
            around: Vec::new(),
        })
    }

    /// How many tokens the compact JSON of `value` is, serialized into a reused buffer.
    pub(crate) fn count_json(&mut self, value: &Value, buffer: &mut Vec<u8>) -> usize {
        buffer.clear();
        if serde_json::to_writer(&mut *buffer, value).is_err() {
            return 0;
        }
        self.count_json_text(buffer)
    }

    /// How many tokens the compact JSON of `value` is, where the value at `holder` — a
    /// pointer into it — may be `shared` as written: then it is not written again, and only
    /// the text around its inside is counted (its inside once for all the values it is found
    /// in). Any other value there is counted apart too, its inside found among those already
    /// counted when it recurs.
    #[cfg(test)]
    pub(crate) fn count_json_with(
        &mut self,
        value: &Value,
        holder: Option<&str>,
        shared: &mut Shared<'_>,
        buffer: &mut Vec<u8>,
    ) -> usize {
        let Some(inner) = holder.and_then(|at| value.pointer(at)) else {
            return self.count_json(value, buffer);
        };
        buffer.clear();
        match holder.and_then(|at| toolpact::json::write_around(value, at, buffer)) {
            Some(at) => self.count_json_holding(buffer, at, inner, shared),
            None => self.count_json(value, buffer),
        }
    }

    /// How many tokens `text` is once `holder` is written at `at`: the compact JSON of a
    /// value around one inside it, as [`toolpact::json::write_around`] writes it. When
    /// `holder` is the `shared` value as written, its inside is counted once for all the
    /// texts it is found in; any other `holder` is counted apart too, its inside found among
    /// those already counted when it recurs.
    pub(crate) fn count_json_holding(
        &mut self,
        text: &[u8],
        at: usize,
        holder: &Value,
        shared: &mut Shared<'_>,
    ) -> usize {
        if same(holder, shared.value) {
            self.count_json_around(text, at, shared)
        } else {
            // A value of its own (a schema the target rewrote): still counted apart, so that
            // its inside is found among those counted before when tools repeat it.
            self.count_json_around(text, at, &mut Shared::new(holder))
        }
    }

    /// How many tokens `text` is once `shared` is written at `at`: the compact JSON of a
    /// value around the shared one, as [`toolpact::json::write_around`] writes it.
    pub(crate) fn count_json_around(
        &mut self,
        text: &[u8],
        at: usize,
        shared: &mut Shared<'_>,
    ) -> usize {
        let (Some(before), Some(after)) = (text.get(..at), text.get(at..)) else {
            return 0;
        };
        // The text is `before`, the shared JSON, then `after`: cut it at the two ends of the
        // inside, and count what is before the cut and what is after it.
        let mut around = std::mem::take(&mut self.around);
        around.clear();
        around.extend_from_slice(before);
        let counted = match shared.inside {
            Some((first, last)) => {
                around.extend_from_slice(&shared.json[..first]);
                let cut = around.len();
                around.extend_from_slice(&shared.json[last..]);
                around.extend_from_slice(after);
                // The cuts fall on ASCII bytes, so each part is UTF-8. The inside is read
                // only the first time: it is the same in every value that holds it.
                let parts = (
                    std::str::from_utf8(&around[..cut]),
                    std::str::from_utf8(&around[cut..]),
                );
                match parts {
                    (Ok(before), Ok(after)) => {
                        let outside = self.count(before) + self.count(after);
                        let inside = match shared.count {
                            Some(n) => Some(n),
                            None => std::str::from_utf8(&shared.json[first..last])
                                .ok()
                                .map(|inside| *shared.count.insert(self.count_inside(inside))),
                        };
                        inside.map(|inside| outside + inside)
                    }
                    _ => None,
                }
            }
            None => None,
        };
        let n = counted.unwrap_or_else(|| {
            // No inside to count apart (a tiny value): the whole text, written out.
            around.truncate(at);
            around.extend_from_slice(&shared.json);
            around.extend_from_slice(after);
            std::str::from_utf8(&around).map_or(0, |text| self.count(text))
        });
        self.around = around;
        n
    }

    /// How many tokens `text`, compact JSON as `serde_json` writes it, is.
    pub(crate) fn count_json_text(&mut self, text: &[u8]) -> usize {
        // serde_json writes UTF-8; the check is cheap next to the counting.
        std::str::from_utf8(text).map_or(0, |text| self.count(text))
    }

    /// How many tokens the inside of a shared value is, remembered: the same schema recurs
    /// across the tools of a catalog.
    fn count_inside(&mut self, inside: &str) -> usize {
        if let Some(&n) = self.insides.get(inside) {
            return n as usize;
        }
        let n = self.count(inside);
        if self.inside_bytes + inside.len() > MAX_INSIDE_BYTES {
            self.insides.clear();
            self.inside_bytes = 0;
        }
        self.inside_bytes += inside.len();
        self.insides
            .insert(inside.into(), u32::try_from(n).unwrap_or(u32::MAX));
        n
    }

    /// How many tokens `text` is.
    pub(crate) fn count(&mut self, text: &str) -> usize {
        let mut total = 0;
        for_each_piece(text, is_unit_cut, |unit| total += self.count_unit(unit));
        total
    }

    /// Forgets the long units: call it when the next texts are about something else (the
    /// next tool), so that memory stays small and hot.
    pub(crate) fn forget_units(&mut self) {
        self.units.clear();
    }

    fn count_unit(&mut self, unit: &str) -> usize {
        if unit.len() < MIN_REMEMBERED_UNIT {
            return self.count_chunks(unit);
        }
        if let Some(&n) = self.units.get(unit) {
            return n as usize;
        }
        let n = self.count_chunks(unit);
        if self.units.len() < MAX_UNITS {
            self.units
                .insert(unit.into(), u32::try_from(n).unwrap_or(u32::MAX));
        }
        n
    }

    fn count_chunks(&mut self, unit: &str) -> usize {
        let mut n = 0;
        for_each_piece(unit, is_chunk_cut, |chunk| n += self.count_chunk(chunk));
        n
    }

    fn count_chunk(&mut self, chunk: &str) -> usize {
        if chunk.len() <= MAX_SHORT_CHUNK {
            let key = short_key(chunk.as_bytes());
            if let Some(&n) = self.short_chunks.get(&key) {
                return n as usize;
            }
            let n = self.bpe.count_ordinary(chunk);
            if self.short_chunks.len() < MAX_CHUNKS {
                self.short_chunks
                    .insert(key, u32::try_from(n).unwrap_or(u32::MAX));
            }
            return n;
        }
        if chunk.len() > MAX_CACHED_CHUNK {
            return self.bpe.count_ordinary(chunk);
        }
        if let Some(&n) = self.chunks.get(chunk) {
            return n as usize;
        }
        let n = self.bpe.count_ordinary(chunk);
        if self.chunks.len() < MAX_CHUNKS {
            self.chunks
                .insert(chunk.into(), u32::try_from(n).unwrap_or(u32::MAX));
        }
        n
    }
}

/// A JSON value that recurs inside others (a tool's input schema, which most targets send as
/// written), with the count of the units strictly inside its compact JSON.
///
/// The inside runs from the first unit cut at position 2 or later to the last unit cut.
/// Whether a cut falls at such a position depends only on the value's own bytes (a cut looks
/// at the byte before it and the one before that, and past a slash back to the first byte
/// that is not one, which is in the value: compact JSON does not start with a slash), so the
/// inside is cut into the same units wherever the value appears, and both its ends are cuts
/// there too.
pub(crate) struct Shared<'v> {
    value: &'v Value,
    json: Vec<u8>,
    inside: Option<(usize, usize)>,
    count: Option<usize>,
}

impl<'v> Shared<'v> {
    /// `value`, ready to be counted inside larger values.
    pub(crate) fn new(value: &'v Value) -> Shared<'v> {
        let mut json = Vec::new();
        if serde_json::to_writer(&mut json, value).is_err() {
            json.clear();
        }
        let cuts = || (2..json.len()).filter(|&i| is_unit_cut(&json, i));
        let inside = cuts()
            .next()
            .zip(cuts().next_back())
            .filter(|(first, last)| first < last);
        Shared {
            value,
            json,
            inside,
            count: None,
        }
    }
}

/// Whether `a` and `b` are the same JSON, written the same way (object keys in the same
/// order): then their compact JSON is the same text.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

/// Calls `f` with each piece of `text`, cut before every byte where `cut(bytes, i)` holds.
/// Cuts fall on ASCII bytes, which are character boundaries.
#[inline]
fn for_each_piece<'t>(text: &'t str, cut: fn(&[u8], usize) -> bool, mut f: impl FnMut(&'t str)) {
    let bytes = text.as_bytes();
    let mut start = 0;
    for i in 1..bytes.len() {
        if cut(bytes, i) {
            if let Some(piece) = text.get(start..i) {
                f(piece);
            }
            start = i;
        }
    }
    if let Some(piece) = text.get(start..).filter(|piece| !piece.is_empty()) {
        f(piece);
    }
}

/// What [`is_unit_cut`] and [`is_chunk_cut`] ask of a byte, one bit each.
const ALNUM: u8 = 1;
const PUNCT: u8 = 2;
const ALPHA: u8 = 4;
const SPACE: u8 = 8;

/// The classes of every byte: a table lookup is cheaper than the range tests, and the
/// scan runs over every byte counted.
static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut class = 0;
        if c.is_ascii_alphanumeric() {
            class |= ALNUM;
        }
        if c.is_ascii_punctuation() {
            class |= PUNCT;
        }
        if c.is_ascii_alphabetic() {
            class |= ALPHA;
        }
        if c.is_ascii_whitespace() {
            class |= SPACE;
        }
        table[b] = class;
        b += 1;
    }
    table
};

#[inline]
fn class(byte: u8) -> u8 {
    CLASS[usize::from(byte)]
}

/// Before a `"` after an ASCII letter or digit, or before an ASCII letter or digit after
/// two ASCII punctuation characters that are one piece.
#[inline]
fn is_unit_cut(bytes: &[u8], i: usize) -> bool {
    let (prev, c) = (class(bytes[i - 1]), bytes[i]);
    (c == b'"' && prev & ALNUM != 0)
        || (class(c) & ALNUM != 0
            && prev & PUNCT != 0
            && i >= 2
            && class(bytes[i - 2]) & PUNCT != 0
            && !ends_line_break_slashes(bytes, i - 2))
}

/// Whether the byte at `at` is a `/` of a run of them right after a line break. A run of
/// punctuation takes the line breaks and slashes that follow it (`—\n/`) and ends there,
/// so that the punctuation after them starts a piece of its own with the word it precedes
/// (`'s`): the two are not one run. Not cutting is always exact, so any such slash is
/// taken to end a piece.
#[inline]
fn ends_line_break_slashes(bytes: &[u8], at: usize) -> bool {
    if bytes[at] != b'/' {
        return false;
    }
    let before = bytes[..at].iter().rposition(|&b| b != b'/');
    before.is_some_and(|k| matches!(bytes[k], b'\n' | b'\r'))
}

/// A unit cut, or a space after a non-space and before an ASCII letter.
#[inline]
fn is_chunk_cut(bytes: &[u8], i: usize) -> bool {
    is_unit_cut(bytes, i)
        || (bytes[i] == b' '
            && class(bytes[i - 1]) & SPACE == 0
            && bytes.get(i + 1).is_some_and(|&b| class(b) & ALPHA != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_after_a_line_break_and_a_slash_stays_with_its_word() {
        let mut counter = TokenCounter::new().unwrap();
        let bpe = tiktoken_rs::o200k_base().unwrap();
        for text in [
            "\u{2014}\n/'s",
            "a.\r\n//'t go",
            "see https://example.com/'x'",
            "x\n/'s",
        ] {
            assert_eq!(
                counter.count(text),
                bpe.encode_ordinary(text).len(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn short_chunks_have_keys_of_their_own() {
        let chunks: [&[u8]; 6] = [b"", b"a", b"ab", b"ab\0", b"ba", b"0123456789abcde"];
        let keys: std::collections::HashSet<u128> = chunks.iter().map(|c| short_key(c)).collect();
        assert_eq!(keys.len(), chunks.len());
        let mut counter = TokenCounter::new().unwrap();
        let bpe = tiktoken_rs::o200k_base().unwrap();
        for text in [
            " the",
            " the",
            " a\0",
            " a",
            "0123456789abcde",
            "0123456789abcdef",
        ] {
            assert_eq!(
                counter.count_chunk(text),
                bpe.encode_ordinary(text).len(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn counts_exactly_what_the_encoder_counts() {
        let samples = [
            r#"{"name":"get_forecast","description":"Daily weather forecast for a city, 1 to 7 days ahead. Call this when the user's asking.","inputSchema":{"type":"object","properties":{"city":{"type":"string","minLength":2,"description":"City name, for example \"Lisbon\" or \"São Paulo\""}},"required":["city"]}}"#,
            "Plain prose, with  two spaces, a tab\tand\nnew lines; don't stop — 東京 and Zürich 123456 v2.",
            "  leading spaces and trailing  ",
            r#"[{"type":"function","function":{"name":"a","parameters":{"enum":["x y","Z"],"x-1":[1,2.5e3,true,null]}}}]"#,
            r#"{"a":"(optional) it's \"quoted\"'s","b":"'s","c":"\n\"x","d":"--> a.b/c?d=e&f","e":"..Z"}"#,
            "",
            "a",
        ];
        let mut counter = TokenCounter::new().expect("o200k_base ships with tiktoken-rs");
        let bpe = tiktoken_rs::o200k_base().expect("o200k_base ships with tiktoken-rs");
        for text in samples {
            assert_eq!(counter.count(text), bpe.count_ordinary(text), "{text}");
            // Twice, so the second count comes from the caches.
            assert_eq!(counter.count(text), bpe.count_ordinary(text), "{text}");
        }
        for path in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/seeds"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let text = std::fs::read_to_string(path.path()).unwrap_or_default();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            let compact = value.to_string();
            assert_eq!(counter.count(&text), bpe.count_ordinary(&text));
            assert_eq!(counter.count(&compact), bpe.count_ordinary(&compact));
            counter.forget_units();
        }
    }

    #[test]
    fn a_shared_schema_counts_exactly_in_every_target() {
        let bpe = tiktoken_rs::o200k_base().expect("o200k_base ships with tiktoken-rs");
        let mut counter = TokenCounter::new().expect("o200k_base ships with tiktoken-rs");
        let dirs = ["seeds", "lowering"].map(|d| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures")
                .join(d)
        });
        let mut found = 0;
        let mut buffer = Vec::new();
        for dir in dirs {
            for path in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let Ok(bytes) = std::fs::read(path.path()) else {
                    continue;
                };
                let Ok(catalog) = toolpact::Catalog::from_slice(&bytes, "fixture", None) else {
                    continue;
                };
                for target in toolpact::Target::ALL {
                    let options = toolpact::ExportOptions::default();
                    let Ok(export) = toolpact::export(catalog.tools(), target, options) else {
                        continue;
                    };
                    let payload = &export.payload;
                    let items = match target {
                        toolpact::Target::Mcp => &payload["tools"],
                        toolpact::Target::Gemini | toolpact::Target::GeminiJson => {
                            &payload[0]["functionDeclarations"]
                        }
                        _ => payload,
                    };
                    let items = items.as_array().cloned().unwrap_or_default();
                    // Each item with the schema of the tool at its place (shared or not: the
                    // count is exact either way).
                    for (item, tool) in items.iter().zip(catalog.tools()) {
                        let mut shared = Shared::new(&tool.input_schema);
                        let holder = [
                            "/parameters",
                            "/input_schema",
                            "/inputSchema",
                            "/parametersJsonSchema",
                            "/function/parameters",
                        ]
                        .into_iter()
                        .find(|at| item.pointer(at).is_some());
                        let want = bpe.count_ordinary(&item.to_string());
                        if holder
                            .and_then(|at| item.pointer(at))
                            .is_some_and(|h| same(h, &tool.input_schema))
                        {
                            found += 1;
                        }
                        let mut count =
                            || counter.count_json_with(item, holder, &mut shared, &mut buffer);
                        assert_eq!(count(), want);
                        // Again, with the inside counted already.
                        assert_eq!(count(), want);
                    }
                    counter.forget_units();
                }
            }
        }
        assert!(found > 100, "the schema was found in {found} items");
    }

    proptest::proptest! {
        /// A JSON value counted inside another, around it or not, counts as the encoder
        /// counts the whole.
        #[test]
        fn a_shared_value_counts_exactly_wherever_it_is(
            inner in proptest::collection::btree_map(
                r#"[a-zA-Z_]{1,8}"#,
                r#"([a-zA-Z]{1,6}|[0-9]{1,3}|[ .,:'"\-]{1,2}|é){0,8}"#,
                0..5,
            ),
            before in r#"([a-zA-Z]{1,6}|[0-9]{1,3}|[ .,:'"]{1,2}){0,6}"#,
            after in proptest::option::of(r#"[a-z0-9 ]{0,8}"#),
        ) {
            let inner = serde_json::json!(inner);
            let whole = match &after {
                Some(after) => serde_json::json!({"before": before, "schema": inner, "after": after}),
                None => serde_json::json!([before, inner]),
            };
            let bpe = O200K_BASE.as_ref().expect("o200k_base ships with tiktoken-rs");
            let mut counter = TokenCounter::new().expect("o200k_base ships with tiktoken-rs");
            let mut shared = Shared::new(&inner);
            let mut buffer = Vec::new();
            let want = bpe.count_ordinary(&whole.to_string());
            let holder = if after.is_some() { "/schema" } else { "/1" };
            proptest::prop_assert_eq!(counter.count_json_with(&whole, Some(holder), &mut shared, &mut buffer), want);
            proptest::prop_assert_eq!(counter.count_json_with(&whole, None, &mut shared, &mut buffer), want);
            // A holder that is not the shared value is counted apart, as exactly.
            let unrelated = serde_json::json!({"before": before});
            let mut other = Shared::new(&unrelated);
            proptest::prop_assert_eq!(counter.count_json_with(&whole, Some(holder), &mut other, &mut buffer), want);
            proptest::prop_assert_eq!(counter.count_json_with(&inner, Some(""), &mut shared, &mut buffer), bpe.count_ordinary(&inner.to_string()));
            // Around `null` where the shared value is sent, as an export writes an item
            // around its input schema.
            let lean = match &after {
                Some(after) => serde_json::json!({"before": before, "schema": null, "after": after}),
                None => serde_json::json!([before, null]),
            };
            let mut text = Vec::new();
            let at = toolpact::json::write_around(&lean, holder, &mut text).expect("the hole is there");
            proptest::prop_assert_eq!(counter.count_json_around(&text, at, &mut shared), want);
            let mut fresh = Shared::new(&inner);
            proptest::prop_assert_eq!(counter.count_json_around(&text, at, &mut fresh), want);
        }

        /// Any mix of letters, digits, punctuation, quotes, apostrophes, whitespace and
        /// non-ASCII text counts the same with the cuts as without.
        #[test]
        fn counts_random_text_exactly(text in r#"([a-zA-Z]{1,6}|[0-9]{1,5}|[ \t\n\r]{1,3}|["'.,:;/?!(){}\[\]<>=&*#@$%^_+\-]{1,4}|'s|'re|é|東京|—){0,40}"#) {
            let mut counter = TokenCounter::new().expect("o200k_base ships with tiktoken-rs");
            let bpe = O200K_BASE.as_ref().expect("o200k_base ships with tiktoken-rs");
            proptest::prop_assert_eq!(counter.count(&text), bpe.count_ordinary(&text));
        }
    }
}
