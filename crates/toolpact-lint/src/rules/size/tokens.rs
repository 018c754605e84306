//! Token counts with OpenAI's `o200k_base` encoding (GPT-4o and later), exact and fast
//! enough for catalogs of 100,000 tools.
//!
//! The encoder first splits text with a regular expression, then runs byte-pair encoding
//! inside each piece, so a count is the sum of the counts of the pieces. The regular
//! expression is the slow part (about 12 MB/s). [`TokenCounter`] cuts the text only where
//! that expression always cuts — before a `"` that follows an ASCII letter or digit, and
//! before a space that follows a non-space and precedes an ASCII letter — and remembers the
//! count of every short chunk. Compact JSON and prose are made of few distinct chunks
//! (`","description":"`, ` the`, ` city`), so most chunks are counted once per run, and
//! the same tool lowered for six targets costs little more than once. The sum is exactly
//! what the encoder returns for the whole text; a unit test holds it to that.
//!
//! The encoding ships inside `tiktoken-rs`: nothing is downloaded.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

static O200K_BASE: LazyLock<Option<CoreBPE>> = LazyLock::new(|| tiktoken_rs::o200k_base().ok());

/// Chunks up to this many bytes are remembered; longer ones are rare and counted each time.
const MAX_CACHED_CHUNK: usize = 48;

/// How many chunks are remembered at most, to bound memory on huge catalogs.
const MAX_CACHE_ENTRIES: usize = 1 << 20;

/// The hash of rustc's `FxHasher`, eight bytes at a time: the chunks are short, and the
/// standard library's SipHash costs more than the lookup saves.
#[derive(Debug, Clone, Copy, Default)]
struct WordHasher(u64);

impl WordHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in chunks.by_ref() {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 56));
        }
    }
}

/// Counts `o200k_base` tokens, remembering the chunks it has seen.
pub(crate) struct TokenCounter {
    bpe: &'static CoreBPE,
    cache: HashMap<Box<str>, u32, BuildHasherDefault<WordHasher>>,
}

impl TokenCounter {
    /// A counter, or `None` if the bundled encoding could not be loaded.
    pub(crate) fn new() -> Option<TokenCounter> {
        Some(TokenCounter {
            bpe: O200K_BASE.as_ref()?,
            cache: HashMap::default(),
        })
    }

    /// How many tokens the compact JSON of `value` is, serialized into a reused buffer.
    pub(crate) fn count_json(&mut self, value: &serde_json::Value, buffer: &mut Vec<u8>) -> usize {
        buffer.clear();
        if serde_json::to_writer(&mut *buffer, value).is_err() {
            return 0;
        }
        // serde_json writes UTF-8; the check is cheap next to the counting.
        std::str::from_utf8(buffer).map_or(0, |text| self.count(text))
    }

    /// How many tokens `text` is.
    pub(crate) fn count(&mut self, text: &str) -> usize {
        chunks(text).map(|chunk| self.count_chunk(chunk)).sum()
    }

    fn count_chunk(&mut self, chunk: &str) -> usize {
        if chunk.len() > MAX_CACHED_CHUNK {
            return self.bpe.count_ordinary(chunk);
        }
        if let Some(&n) = self.cache.get(chunk) {
            return n as usize;
        }
        let n = self.bpe.count_ordinary(chunk);
        if self.cache.len() < MAX_CACHE_ENTRIES {
            self.cache
                .insert(chunk.into(), u32::try_from(n).unwrap_or(u32::MAX));
        }
        n
    }
}

/// Cuts `text` where the `o200k_base` pre-tokenizer always ends a piece (see the module
/// documentation).
fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 1;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let (prev, c) = (bytes[i - 1], bytes[i]);
            let cut = (c == b'"' && prev.is_ascii_alphanumeric())
                || (c == b' '
                    && !prev.is_ascii_whitespace()
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic));
            i += 1;
            if cut {
                // Both cut characters are ASCII, so `i - 1` is a character boundary.
                let chunk = text.get(start..i - 1);
                start = i - 1;
                return chunk;
            }
        }
        if start < bytes.len() {
            let chunk = text.get(start..);
            start = bytes.len();
            return chunk;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_exactly_what_the_encoder_counts() {
        let samples = [
            r#"{"name":"get_forecast","description":"Daily weather forecast for a city, 1 to 7 days ahead. Call this when the user's asking.","inputSchema":{"type":"object","properties":{"city":{"type":"string","minLength":2,"description":"City name, for example \"Lisbon\" or \"São Paulo\""}},"required":["city"]}}"#,
            "Plain prose, with  two spaces, a tab\tand\nnew lines; don't stop — 東京 and Zürich 123456 v2.",
            "  leading spaces and trailing  ",
            r#"[{"type":"function","function":{"name":"a","parameters":{"enum":["x y","Z"],"x-1":[1,2.5e3,true,null]}}}]"#,
            "",
            "a",
        ];
        let mut counter = TokenCounter::new().expect("o200k_base ships with tiktoken-rs");
        let bpe = tiktoken_rs::o200k_base().expect("o200k_base ships with tiktoken-rs");
        for text in samples {
            assert_eq!(counter.count(text), bpe.count_ordinary(text), "{text}");
            // Twice, so the second count comes from the cache.
            assert_eq!(counter.count(text), bpe.count_ordinary(text), "{text}");
        }
        for path in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/seeds"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let text = std::fs::read_to_string(path.path()).unwrap_or_default();
            assert_eq!(counter.count(&text), bpe.count_ordinary(&text));
        }
    }
}
