//! Every string of a tool that the model reads, with its exact JSON pointer: the name, the
//! titles and descriptions, and everything in the input and output schemas — property names,
//! titles, descriptions, `default`, `enum`, `const` and `examples` values at any depth,
//! extension keywords — but not the keywords that only constrain (`type`, `format`,
//! `pattern`, `$ref`, …).

use crate::analysis::schema::push_token;
use serde_json::Value;
use std::fmt::Write as _;
use toolpact::Tool;

/// What a string is in the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// The tool's name.
    Name,
    /// A title or description, of the tool or in a schema: the text the description rules
    /// already read.
    Prose,
    /// A property's name.
    PropertyName,
    /// A value the model may copy: `default`, `enum`, `const`, `examples`, or a string
    /// under an extension keyword.
    Value,
}

/// Keywords whose string values only constrain the data or point elsewhere.
const STRUCTURAL: &[&str] = &[
    "type",
    "format",
    "pattern",
    "$ref",
    "$schema",
    "$id",
    "$anchor",
    "$comment",
    "contentEncoding",
    "contentMediaType",
    "required",
    "$dynamicRef",
    "$dynamicAnchor",
];

/// Keywords whose members are named properties.
const PROPERTY_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Calls `f` with every string of `tool` the model reads, its pointer and its place.
pub(crate) fn for_each_string(tool: &Tool, f: &mut dyn FnMut(&str, Place, &str)) {
    f("/name", Place::Name, &tool.name);
    if let Some(title) = &tool.title {
        f("/title", Place::Prose, title);
    }
    if let Some(description) = &tool.description {
        f("/description", Place::Prose, description);
    }
    if let Some(title) = tool.annotations.as_ref().and_then(|a| a.title.as_ref()) {
        f("/annotations/title", Place::Prose, title);
    }
    let mut pointer = String::with_capacity(64);
    pointer.push_str("/inputSchema");
    walk(&tool.input_schema, None, &mut pointer, f);
    if let Some(output) = &tool.output_schema {
        pointer.clear();
        pointer.push_str("/outputSchema");
        walk(output, None, &mut pointer, f);
    }
}

/// Calls `f` with every string of any JSON value (a tool result), keys included.
pub(crate) fn for_each_value_string(value: &Value, f: &mut dyn FnMut(&str, Place, &str)) {
    let mut pointer = String::new();
    walk(value, Some(Place::Value), &mut pointer, f);
}

/// Walks `value`; `data` is the place of strings inside a data keyword's value.
fn walk(
    value: &Value,
    data: Option<Place>,
    pointer: &mut String,
    f: &mut dyn FnMut(&str, Place, &str),
) {
    match value {
        Value::String(s) => f(pointer, data.unwrap_or(Place::Value), s),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                let _ = write!(pointer, "{i}");
                walk(item, data, pointer, f);
                pointer.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, member) in map {
                let len = pointer.len();
                push_token(pointer, key);
                match data {
                    Some(place) => {
                        // Keys of a data object reach the model as much as its values.
                        f(pointer, place, key);
                        walk(member, data, pointer, f);
                    }
                    None => member_of_schema(key, member, pointer, f),
                }
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

fn member_of_schema(
    key: &str,
    member: &Value,
    pointer: &mut String,
    f: &mut dyn FnMut(&str, Place, &str),
) {
    if PROPERTY_MAPS.contains(&key) {
        if let Value::Object(props) = member {
            for (name, schema) in props {
                let len = pointer.len();
                push_token(pointer, name);
                f(pointer, Place::PropertyName, name);
                walk(schema, None, pointer, f);
                pointer.truncate(len);
            }
        }
        return;
    }
    match key {
        "description" | "title" => {
            if let Value::String(s) = member {
                f(pointer, Place::Prose, s);
            }
        }
        "default" | "enum" | "const" | "examples" | "example" => {
            walk(member, Some(Place::Value), pointer, f)
        }
        _ if STRUCTURAL.contains(&key) => {}
        _ => walk(member, None, pointer, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_every_string_with_its_pointer() {
        let tool: Tool = serde_json::from_value(json!({
            "name": "t",
            "description": "D",
            "inputSchema": {
                "type": "object",
                "properties": {"a/b": {"type": "string", "description": "A", "default": {"k": "v"}, "enum": ["x"]}},
                "x-note": "hidden"
            },
            "outputSchema": {"properties": {"e": {"title": "E"}}}
        }))
        .unwrap();
        let mut found = Vec::new();
        for_each_string(&tool, &mut |p, place, s| {
            found.push((p.to_owned(), place, s.to_owned()))
        });
        let pointers: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/name",
                "/description",
                "/inputSchema/properties/a~1b",
                "/inputSchema/properties/a~1b/description",
                "/inputSchema/properties/a~1b/default/k",
                "/inputSchema/properties/a~1b/default/k",
                "/inputSchema/properties/a~1b/enum/0",
                "/inputSchema/x-note",
                "/outputSchema/properties/e",
                "/outputSchema/properties/e/title",
            ]
        );
        assert_eq!(found[2].1, Place::PropertyName);
        assert_eq!(found[7].1, Place::Value);
    }
}
