//! What a thread has read of a text, remembered by a 64-bit hash of the text seeded at random
//! for the process, so that no text can be written to pass for another. Large catalogs repeat
//! their property descriptions, names and values many times over; each is read once per
//! thread.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::LazyLock;

static SEED: LazyLock<foldhash::quality::RandomState> =
    LazyLock::new(foldhash::quality::RandomState::default);

/// The key of `text`, read in the way `reading` names (a text may be read more than one way).
pub(crate) fn key(reading: u8, text: &str) -> u64 {
    let mut h = SEED.build_hasher();
    reading.hash(&mut h);
    text.hash(&mut h);
    h.finish()
}

/// What a thread remembers of the texts it has read, by [`key`]; it starts over when it holds
/// `capacity` texts, so that its memory stays bounded on any catalog.
pub(crate) struct Memo<V> {
    seen: HashMap<u64, V, foldhash::fast::FixedState>,
    capacity: usize,
}

impl<V: Copy> Memo<V> {
    /// An empty memo of at most `capacity` texts (for a `thread_local!`).
    pub(crate) const fn new(capacity: usize) -> Memo<V> {
        Memo {
            seen: HashMap::with_hasher(foldhash::fast::FixedState::with_seed(0)),
            capacity,
        }
    }

    /// What was remembered of the text of `key`.
    pub(crate) fn get(&self, key: u64) -> Option<V> {
        self.seen.get(&key).copied()
    }

    /// Remembers `value` for the text of `key`.
    pub(crate) fn insert(&mut self, key: u64, value: V) {
        if self.seen.len() >= self.capacity {
            self.seen.clear();
        }
        self.seen.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::{Memo, key};

    #[test]
    fn remembers_by_text_and_reading_and_starts_over_when_full() {
        assert_eq!(key(0, "a text"), key(0, "a text"));
        assert_ne!(key(0, "a text"), key(1, "a text"));
        let mut memo = Memo::new(2);
        memo.insert(key(0, "one"), 1u8);
        memo.insert(key(0, "two"), 2);
        assert_eq!(memo.get(key(0, "one")), Some(1));
        assert_eq!(memo.get(key(1, "one")), None);
        memo.insert(key(0, "three"), 3);
        assert_eq!(memo.get(key(0, "one")), None);
        assert_eq!(memo.get(key(0, "three")), Some(3));
    }
}
