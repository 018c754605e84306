//! What one worker keeps for the rules during one check: a slot per type a rule keeps there
//! (compiled schemas by their JSON, token counts by their text), made when the rule first
//! asks and freed with the worker when the check ends. Rules keep such things for speed:
//! catalogs repeat schemas and texts, and the same work is not done twice on one core.

use std::any::{Any, TypeId};
use std::cell::RefCell;

/// One slot: the type it holds, and its value while no rule is using it.
type Slot = (TypeId, Option<Box<dyn Any>>);

/// One worker's slots, by the type each holds: a rule keeps a type of its own there, so
/// that each rule has its slot. The engine makes one for each worker of a check.
#[derive(Default)]
pub(crate) struct Scratch {
    slots: RefCell<Vec<Slot>>,
}

impl Scratch {
    /// Calls `f` with this worker's `T`, made with `T::default()` when first asked for.
    ///
    /// The value is taken out of its slot while `f` runs, so `f` may ask for another slot;
    /// asking for the same one inside `f` gets a new value, which is dropped.
    pub(crate) fn with<T: Default + 'static, R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let id = TypeId::of::<T>();
        let taken = self
            .slots
            .borrow_mut()
            .iter_mut()
            .find(|(slot, _)| *slot == id)
            .and_then(|(_, value)| value.take());
        let mut value: Box<T> = taken
            .and_then(|value| value.downcast::<T>().ok())
            .unwrap_or_default();
        let result = f(&mut value);
        let mut slots = self.slots.borrow_mut();
        match slots.iter_mut().find(|(slot, _)| *slot == id) {
            Some((_, slot)) => *slot = Some(value),
            None => slots.push((id, Some(value))),
        }
        result
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("slots", &self.slots.borrow().len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Scratch;

    #[derive(Default)]
    struct Counts(Vec<usize>);

    #[derive(Default)]
    struct Other(usize);

    #[test]
    fn each_type_keeps_its_value_from_call_to_call() {
        let scratch = Scratch::default();
        for n in 0..3 {
            scratch.with(|counts: &mut Counts| counts.0.push(n));
            scratch.with(|other: &mut Other| other.0 += 10);
        }
        assert_eq!(
            scratch.with(|counts: &mut Counts| counts.0.clone()),
            [0, 1, 2]
        );
        assert_eq!(scratch.with(|other: &mut Other| other.0), 30);
        // One slot may be asked for while another is in use.
        let inner = scratch.with(|counts: &mut Counts| {
            counts.0.push(3);
            scratch.with(|other: &mut Other| other.0)
        });
        assert_eq!(inner, 30);
        assert_eq!(scratch.with(|counts: &mut Counts| counts.0.len()), 4);
    }
}
