//! What a thread has read of a text, remembered by a 64-bit hash of the text seeded at random
//! for the process, so that no text can be written to pass for another. Large catalogs repeat
//! their property descriptions, names and values many times over; each is read once per
//! thread.

use std::cell::RefCell;
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

/// The ways of reading a text whose readers keep, per thread, the texts in which they found
/// nothing ([`found_nothing`]): each its own namespace of keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The poisoning scan, of a title or description.
    PoisonProse,
    /// The poisoning scan, of a value (`default`, `enum`, …).
    PoisonValue,
    /// The poisoning scan, of a tool's name (read for look-alike letters too).
    PoisonToolName,
    /// The poisoning scan, of a property's name.
    PoisonPropertyName,
    /// The steering-text model, of a whole string as written.
    SteeringString,
    /// The steering-text model, of one normalised sentence.
    SteeringSentence,
}

thread_local! {
    /// The texts a thread's readers found nothing in, by [`key`] with the [`Reading`]: at most
    /// two million, about 32 MB.
    static NOTHING: RefCell<Memo<()>> = const { RefCell::new(Memo::new(1 << 21)) };
}

/// The key of `text` read in the way `reading` names, for [`found_nothing`] and
/// [`remember_nothing`].
pub(crate) fn reading_key(reading: Reading, text: &str) -> u64 {
    key(reading as u8, text)
}

/// Whether this thread read the text of `key` (a [`reading_key`]) and found nothing in it.
pub(crate) fn found_nothing(key: u64) -> bool {
    NOTHING.with(|n| n.borrow().get(key).is_some())
}

/// Remembers that this thread read the text of `key` (a [`reading_key`]) and found nothing.
pub(crate) fn remember_nothing(key: u64) {
    NOTHING.with(|n| n.borrow_mut().insert(key, ()));
}

#[cfg(test)]
mod tests {
    use super::{Memo, Reading, found_nothing, key, reading_key, remember_nothing};

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

    #[test]
    fn what_one_reading_found_nothing_in_is_not_known_to_another() {
        let text = "a text no other test reads";
        let prose = reading_key(Reading::PoisonProse, text);
        assert!(!found_nothing(prose));
        remember_nothing(prose);
        assert!(found_nothing(prose));
        assert!(!found_nothing(reading_key(Reading::SteeringString, text)));
    }
}
