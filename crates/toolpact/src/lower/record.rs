//! The walker's records as it lowers: where each node of the lowered schema comes from
//! ([`SourceMap`](crate::lower::SourceMap)) and how to read back what the model sends for it
//! ([`Inverse`]), kept in step when a rewrite moves, drops or wraps what was lowered.

use crate::json::child_pointer;
use crate::lower::inverse::Inverse;
use crate::lower::profile::Lowerer;

impl Lowerer<'_, '_, '_> {
    /// The lowered schema's pointer for the walker's pointer `ptr` (which starts with the
    /// pointer of the schema in the tool, as losses are reported).
    pub(super) fn place(&self, ptr: &str) -> String {
        ptr.get(self.base.len()..).unwrap_or_default().to_owned()
    }

    /// Records that each of `keys` in the node the walker lowers at `ptr` comes from the
    /// node at `source` in the schema as written, unless it was given a place already (an
    /// outer inlining's keyword wins the merge).
    pub(super) fn keywords_from<'k>(
        &mut self,
        ptr: &str,
        source: &str,
        keys: impl Iterator<Item = &'k String>,
    ) {
        let place = self.place(ptr);
        for key in keys {
            let token = child_pointer("", key);
            self.sources
                .record_if_new(format!("{place}{token}"), format!("{source}{token}"));
        }
    }

    /// What was lowered at `from` now sits at `to` (both walker pointers): every record at
    /// or below `from` moves with it, and `to` comes from where `from` came from.
    pub(super) fn moved(&mut self, from: &str, to: &str) {
        let (from, to) = (self.place(from), self.place(to));
        self.inverse.moved(&from, &to);
        let source = self.sources.original(&from);
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
