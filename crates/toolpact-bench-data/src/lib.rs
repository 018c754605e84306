//! The generated inputs of toolpact's benchmarks, in one place: each benchmark and example that
//! measures toolpact on generated tools takes them from here, so that every figure in
//! docs/benchmarks.md is measured on the same bytes, run after run and machine after machine.
//!
//! - [`near_duplicates`]: the linter's catalogs of 10,000 and 100,000 tools;
//! - [`rich_catalog`]: the convert benchmark's catalog of 250 realistic tools;
//! - [`account_settings`]: the dispatch benchmark's large tool, with a valid and an invalid
//!   instance.
//!
//! Each generator draws from its own fixed seed; change a seed or a generator only together
//! with the figures measured on it.

// Generated inputs are not library code: a generator that cannot build its input should stop
// the benchmark that asked for it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod account_settings;
pub mod near_duplicates;
pub mod rich_catalog;

/// SplitMix64: a few lines, no dependency, and the same sequence on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One of `items`.
    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.range(0, items.len() - 1)]
    }
}

/// `word` with its first letter in upper case.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
