use crate::analysis::schema::Property;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds input properties without a description.
    ///
    /// Every depth counts: nested objects, objects inside arrays, `$defs`, and union
    /// branches. A description reached through a local `$ref` or a nullable `anyOf` counts; a
    /// `title` does not (generators fill it with the property name). Output schemas are not
    /// checked: the model does not write them.
    ///
    /// ## Why is this bad?
    /// The model sees the schema, never the handler. A bare `"days": {"type": "integer"}` does
    /// not say whether it means days ahead or days back, which values make sense, or what
    /// happens when it is left out — so the model guesses.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, "maximum": 7}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {
    ///   "city": {"type": "string", "description": "City name, e.g. \"Lisbon\""},
    ///   "days": {"type": "integer", "minimum": 1, "maximum": 7, "description": "How many days ahead to forecast, 1 to 7; defaults to 3"}
    /// }}
    /// ```
    ///
    /// ## References
    /// - A property description says what goes in and in what format
    pub struct MissingPropertyDescription {
        code: "TP106",
        name: "missing-property-description",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// What to suggest for a property of this shape.
fn suggestion(property: &Property<'_, '_>) -> &'static str {
    if property.is_closed() {
        "say what the property chooses and what each value means"
    } else if property.is_array() {
        "say what the list holds and what one item is, with an example (Short interest tags, e.g. [\"books\", \"boardgames\"])"
    } else if property.types().contains("object") {
        "say what the object stands for"
    } else {
        "say what goes in and in what format, with an example (City name, e.g. \"Lisbon\")"
    }
}

impl Rule for MissingPropertyDescription {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for MissingPropertyDescription {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let i = view.index;
        view.for_each_property(&mut |property| {
            if property.description().is_some() {
                return;
            }
            out.push(Violation {
                tool: Some(i),
                message: format!("the property {:?} has no description", property.name),
                help: suggestion(property).into(),
                pointer: property.pointer.to_owned(),
            });
        });
    }
}
