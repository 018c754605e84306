//! The walker's records as it lowers: where each node of the lowered schema comes from
//! ([`SourceMap`](crate::lower::SourceMap)) and how to read back what the model sends for it
//! ([`Inverse`]), kept in step when a rewrite moves, drops or wraps what was lowered.

use crate::json::{at_pointer, push_token};
use crate::lower::inverse::Inverse;
use crate::lower::profile::Lowerer;
use serde_json::{Map, Value};

impl Lowerer<'_, '_, '_> {
    /// The lowered schema's pointer for the walker's pointer `ptr` (which starts with the
    /// pointer of the schema in the tool, as losses are reported).
    pub(super) fn place(&self, ptr: &str) -> String {
        ptr.get(self.base.len()..).unwrap_or_default().to_owned()
    }

    /// Records, for the node the walker lowers at `ptr` (an inlined `$ref`), that each of
    /// `siblings` (the keywords written beside the `$ref`, which win the merge) keeps the
    /// place it has, and that its other members come from the definition at `definition` in
    /// the schema as written (`defined`, the node the reference resolved to).
    pub(super) fn inlined_from<'k>(
        &mut self,
        ptr: &str,
        definition: &str,
        defined: Option<&Map<String, Value>>,
        siblings: impl Iterator<Item = &'k String>,
    ) {
        let place = ptr.get(self.base.len()..).unwrap_or_default();
        for key in siblings {
            let mut lowered = String::with_capacity(place.len() + key.len() + 1);
            lowered.push_str(place);
            push_token(&mut lowered, key);
            let original = self.sources.original(&lowered, self.root);
            self.sources.record(lowered, original);
        }
        match at_pointer(self.root, definition) {
            Some(Value::Object(_)) => self
                .sources
                .record_members(place.to_owned(), definition.to_owned()),
            // A reference that is not a plain JSON pointer (an anchor, a percent-encoded
            // name): each keyword of the definition is recorded on its own.
            _ => {
                for key in defined.into_iter().flat_map(|d| d.keys()) {
                    if key == "$ref" {
                        continue;
                    }
                    let mut lowered = String::with_capacity(place.len() + key.len() + 1);
                    lowered.push_str(place);
                    push_token(&mut lowered, key);
                    if self.sources.has_record(&lowered) {
                        continue;
                    }
                    let mut original = String::with_capacity(definition.len() + key.len() + 1);
                    original.push_str(definition);
                    push_token(&mut original, key);
                    self.sources.record(lowered, original);
                }
            }
        }
    }

    /// What was lowered at `from` now sits at `to` (both walker pointers): every record at
    /// or below `from` moves with it, and `to` comes from where `from` came from.
    pub(super) fn moved(&mut self, from: &str, to: &str) {
        let (from, to) = (self.place(from), self.place(to));
        self.inverse.moved(&from, &to);
        let source = self.sources.original(&from, self.root);
        self.sources.move_under(&from, &to);
        self.sources.record(to, source);
    }

    /// What was lowered at `ptr` (a walker pointer) is not in the lowered schema after all.
    pub(super) fn forget(&mut self, ptr: &str) {
        let place = self.place(ptr);
        self.inverse.forget(&place);
        self.sources.forget_under(&place);
    }

    /// Lowers with no record kept, for a part of the schema the lowered schema leaves out.
    pub(super) fn unrecorded<T>(&mut self, lower: impl FnOnce(&mut Self) -> T) -> T {
        let kept = std::mem::take(&mut self.sources);
        let marks = std::mem::replace(&mut self.inverse, Inverse::new(self.profile.label));
        let out = lower(self);
        self.sources = kept;
        self.inverse = marks;
        out
    }
}
