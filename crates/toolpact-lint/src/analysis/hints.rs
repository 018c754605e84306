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

    /// The JSON pointer of the misplaced hint, if the tool wrote it outside `annotations`.
    pub(crate) fn misplaced_pointer(self, tool: &Tool) -> Option<String> {
        if tool
            .meta
            .as_ref()
            .is_some_and(|m| m.contains_key(self.key()))
        {
            Some(format!("/_meta/{}", self.key()))
        } else if tool.extra.contains_key(self.key()) {
            Some(format!("/{}", self.key()))
        } else {
            None
        }
    }

    /// Where a finding about this hint points: the misplaced hint, else `annotations`, else
    /// the name that made the rule expect the hint.
    pub(crate) fn finding_pointer(self, tool: &Tool) -> String {
        self.misplaced_pointer(tool).unwrap_or_else(|| {
            if tool.annotations.is_some() {
                "/annotations".to_owned()
            } else {
                "/name".to_owned()
            }
        })
    }

    /// The help, led by "move `readOnlyHint` from `_meta` into `annotations`" when the hint
    /// is misplaced.
    pub(crate) fn help(self, tool: &Tool, help: &str) -> String {
        match self.misplaced(tool) {
            Some(place) => format!(
                "move `{}` from {place} into `annotations`, where clients read hints; {help}",
                self.key()
            ),
            None => help.to_owned(),
        }
    }

    /// " (`readOnlyHint` is in `_meta`, where clients do not look for it)" when misplaced,
    /// else "".
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
