//! Behaviour hints as a tool declares them, and hints written where clients do not look
//! (`_meta`, the tool's top level), so that the annotation rules can say where they went.

use toolpact::Tool;

/// A behaviour hint (`annotations.readOnlyHint`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    /// `readOnlyHint`.
    ReadOnly,
    /// `destructiveHint`.
    Destructive,
    /// `openWorldHint`.
    OpenWorld,
}

impl Hint {
    /// The key in `annotations`.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Hint::ReadOnly => "readOnlyHint",
            Hint::Destructive => "destructiveHint",
            Hint::OpenWorld => "openWorldHint",
        }
    }

    /// The value the tool declares in `annotations`, if any.
    pub(crate) fn declared(self, tool: &Tool) -> Option<bool> {
        let annotations = tool.annotations.as_ref()?;
        match self {
            Hint::ReadOnly => annotations.read_only_hint,
            Hint::Destructive => annotations.destructive_hint,
            Hint::OpenWorld => annotations.open_world_hint,
        }
    }

    /// Where the tool wrote this hint instead of `annotations`, if it did.
    pub(crate) fn misplaced(self, tool: &Tool) -> Option<&'static str> {
        if tool
            .meta
            .as_ref()
            .is_some_and(|m| m.contains_key(self.key()))
        {
            Some("`_meta`")
        } else if tool.extra.contains_key(self.key()) {
            Some("the tool's top level")
        } else {
            None
        }
    }

    /// ", and `readOnlyHint` in `_meta` is not read by clients" when misplaced, else "".
    pub(crate) fn misplaced_note(self, tool: &Tool) -> String {
        self.misplaced(tool)
            .map(|place| {
                format!(
                    " (`{}` is in {place}, where clients do not look for it)",
                    self.key()
                )
            })
            .unwrap_or_default()
    }
}
