//! Tools defined by Rust types: one declaration gives the schema, the runtime
//! validation and the static type. Doc comments become descriptions.

use crate::handler::{CallContext, Handler, ToolError};
use crate::result::{Content, ToolResult};
use crate::tool::{Annotations, Icon, Tool};
use futures::future::BoxFuture;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A tool whose arguments are a Rust type.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use toolpact::{TypedTool, Unstructured};
///
/// /// Get the weather forecast for a city. Call this when the user asks about the weather.
/// #[derive(Deserialize, JsonSchema)]
/// struct GetForecast {
///     /// City name, such as "Lisbon".
///     city: String,
///     /// Number of days, 1 to 7.
///     days: Option<u8>,
/// }
///
/// struct Forecast;
/// impl TypedTool for Forecast {
///     type Input = GetForecast;
///     type Output = Unstructured;
///     const NAME: &'static str = "get_forecast";
/// }
///
/// let tool = toolpact::tool_of::<Forecast>().unwrap();
/// assert_eq!(tool.description.as_deref(), Some("Get the weather forecast for a city. Call this when the user asks about the weather."));
/// assert_eq!(tool.input_schema["required"], serde_json::json!(["city"]));
/// ```
pub trait TypedTool {
    /// The arguments. Its doc comment is the tool's description unless
    /// [`TypedTool::description`] gives one; field doc comments describe the properties.
    type Input: DeserializeOwned + JsonSchema;
    /// What the tool returns: [`Json<T>`] for structured output with an output schema, or
    /// [`Unstructured`] for content blocks only.
    type Output: ToolOutput;
    /// The tool's name.
    const NAME: &'static str;

    /// A display title for people.
    fn title() -> Option<String> {
        None
    }

    /// The description; by default the doc comment of [`TypedTool::Input`].
    fn description() -> Option<String> {
        None
    }

    /// Behaviour hints (read-only, destructive, idempotent, open world).
    fn annotations() -> Option<Annotations> {
        None
    }

    /// `_meta`, such as `openai/outputTemplate`.
    fn meta() -> Option<Map<String, Value>> {
        None
    }

    /// Icons.
    fn icons() -> Option<Vec<Icon>> {
        None
    }
}

/// How a typed tool's output is declared, and how a value of it becomes a result.
pub trait ToolOutput {
    /// The output schema, if the tool returns structured content.
    fn output_schema() -> Option<Value>;
    /// The result sent back for this output; `Err` says why it cannot be serialized.
    fn into_result(self) -> Result<ToolResult, String>;
}

/// Structured output of type `T`: the tool declares `outputSchema` and returns
/// `structuredContent` (and the same JSON as text, for older clients).
#[derive(Debug, Clone, PartialEq)]
pub struct Json<T>(pub T);

impl<T: Serialize + JsonSchema> ToolOutput for Json<T> {
    fn output_schema() -> Option<Value> {
        let mut schema = schema_for_with::<T>(SchemaSettings::draft2020_12().for_serialize());
        if let Value::Object(map) = &mut schema {
            map.remove("title");
        }
        Some(schema)
    }

    fn into_result(self) -> Result<ToolResult, String> {
        serde_json::to_value(self.0)
            .map(ToolResult::structured)
            .map_err(|e| format!("the output cannot be serialized: {e}"))
    }
}

/// Output made of content blocks only (text, images, links); no output schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unstructured(pub Vec<Content>);

impl ToolOutput for Unstructured {
    fn output_schema() -> Option<Value> {
        None
    }

    fn into_result(self) -> Result<ToolResult, String> {
        Ok(ToolResult {
            content: self.0,
            ..ToolResult::default()
        })
    }
}

/// Plain text output.
impl ToolOutput for String {
    fn output_schema() -> Option<Value> {
        None
    }

    fn into_result(self) -> Result<ToolResult, String> {
        Ok(ToolResult::text(self))
    }
}

/// A typed tool with its implementation: registered with
/// [`Registry::register_handler`](crate::Registry::register_handler), it is dispatched with
/// arguments already validated against the full schema and deserialized into
/// [`TypedTool::Input`].
pub trait TypedHandler: TypedTool + Send + Sync + 'static {
    /// Runs the tool. Return [`ToolError::for_model`] for a failure the model should read
    /// (an unknown id, a business rule), [`ToolError::internal`] for anything else.
    fn call(
        &self,
        input: Self::Input,
        ctx: CallContext,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;
}

/// Why a Rust type cannot be a tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypedToolError {
    /// The input type's schema is not an object (tool arguments are always a JSON object).
    #[error(
        "the input type {type_name} of tool {tool:?} is not a struct with named fields: its schema is {found}, but tool arguments are always a JSON object"
    )]
    NotObject {
        /// The tool.
        tool: String,
        /// The Rust type.
        type_name: &'static str,
        /// What its schema is, in short.
        found: String,
    },
}

/// The JSON Schema of `T` as toolpact publishes it: draft 2020-12 without `$schema` (some
/// clients try to fetch it), no root `title` (the type's name is noise to a model),
/// `Option<T>` fields as optional properties of type `T` rather than `["T", "null"]` unions,
/// which break some clients (Cursor, Gemini), and without the formats `schemars` invents for
/// Rust integer types (`uint8`, `uint32`, `int16`…): no JSON Schema vocabulary or provider
/// knows them, and the range they stand for is already in `minimum` and `maximum`. The
/// OpenAPI formats (`int32`, `int64`, `float`, `double`) stay: Gemini reads them. Doc comments
/// wrapped at the source's width become one line per paragraph.
pub fn schema_for<T: JsonSchema>() -> Value {
    schema_for_with::<T>(SchemaSettings::draft2020_12().for_deserialize())
}

fn schema_for_with<T: JsonSchema>(settings: SchemaSettings) -> Value {
    let schema = settings
        .with(|s| s.meta_schema = None)
        .into_generator()
        .into_root_schema_for::<T>();
    let mut value = schema.to_value();
    each_schema(&mut value, 0, &mut |map| {
        strip_optional_null(map);
        strip_rust_format(map);
        if let Some(Value::String(description)) = map.get_mut("description") {
            *description = unwrap_doc(description);
        }
    });
    value
}

/// A doc comment as one text: the lines a source file wraps at its width are joined with
/// spaces, as a reader (and a client showing the description) would read them. Paragraphs,
/// list items, headings, quotes, tables, indented and fenced code, and lines ending in a
/// Markdown hard break keep their line breaks.
pub(crate) fn unwrap_doc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_fence = false;
    // Whether the line before is prose that the next prose line continues.
    let mut continues = false;
    for (i, line) in text.split('\n').enumerate() {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        let blank = trimmed.is_empty();
        let keeps_break = fence
            || in_fence
            || blank
            || starts_block(trimmed)
            || line.starts_with("    ")
            || line.starts_with('\t');
        let join = continues && !keeps_break;
        if i > 0 {
            out.push(if join { ' ' } else { '\n' });
        }
        out.push_str(if join { trimmed } else { line });
        if fence {
            in_fence = !in_fence;
        }
        continues = !blank
            && !in_fence
            && !fence
            && !line.ends_with("  ")
            && !trimmed.starts_with('#')
            && !trimmed.starts_with('|');
    }
    out
}

/// Whether a line starts a Markdown block of its own: a list item, a heading, a quote or a
/// table row.
fn starts_block(line: &str) -> bool {
    if ["- ", "* ", "+ ", "> ", "#", "|"]
        .iter()
        .any(|p| line.starts_with(p))
    {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// The formats `schemars` writes for Rust integer types that are not OpenAPI formats.
const RUST_INTEGER_FORMATS: [&str; 10] = [
    "int", "int8", "int16", "int128", "uint", "uint8", "uint16", "uint32", "uint64", "uint128",
];

/// Calls `f` on `schema` and on every schema below it (properties, definitions, items,
/// branches), parents before children.
fn each_schema(schema: &mut Value, depth: usize, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    let Value::Object(map) = schema else { return };
    f(map);
    for (key, value) in map.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Value::Object(children) = value {
                    for child in children.values_mut() {
                        each_schema(child, depth + 1, f);
                    }
                }
            }
            "items" | "additionalProperties" => each_schema(value, depth + 1, f),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(children) = value {
                    for child in children {
                        each_schema(child, depth + 1, f);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Removes `null` from the schemas of properties that are not required: a missing property
/// already means "no value", and a `null` union only invites clients to choke.
fn strip_optional_null(map: &mut Map<String, Value>) {
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            if !required.contains(name) {
                remove_null(prop);
            }
        }
    }
}

/// Removes a `format` that only names a Rust integer type. A `u32` keeps its upper bound as
/// `maximum`, so that a larger number is an argument error the model can fix rather than a
/// failure to read the arguments into the Rust type.
fn strip_rust_format(map: &mut Map<String, Value>) {
    let Some(format) = map
        .get("format")
        .and_then(Value::as_str)
        .filter(|f| RUST_INTEGER_FORMATS.contains(f))
    else {
        return;
    };
    if format == "uint32" {
        map.entry("maximum")
            .or_insert_with(|| Value::from(u32::MAX));
    }
    map.shift_remove("format");
}

fn remove_null(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let single = types.remove(0);
            map.insert("type".to_owned(), single);
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    let is_null = |b: &Value| b.get("type").and_then(Value::as_str) == Some("null");
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        if !branches.iter().any(is_null) {
            continue;
        }
        let rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
        if let [single] = rest.as_slice() {
            map.remove(key);
            if let Value::Object(branch) = single {
                for (k, v) in branch {
                    map.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        } else {
            map.insert(key.to_owned(), Value::Array(rest));
        }
    }
}

/// The tool a [`TypedTool`] declares.
pub fn tool_of<T: TypedTool>() -> Result<Tool, TypedToolError> {
    let mut input_schema = schema_for::<T::Input>();
    let doc = match &mut input_schema {
        Value::Object(map) => {
            map.remove("title");
            match map.remove("description") {
                Some(Value::String(d)) => Some(d),
                _ => None,
            }
        }
        _ => None,
    };
    if input_schema.get("type").and_then(Value::as_str) != Some("object") {
        let found = match input_schema.get("type") {
            Some(t) => format!("of type {t}"),
            None => "not of type \"object\"".to_owned(),
        };
        return Err(TypedToolError::NotObject {
            tool: T::NAME.to_owned(),
            type_name: std::any::type_name::<T::Input>(),
            found,
        });
    }
    Ok(Tool {
        name: T::NAME.to_owned(),
        title: T::title(),
        description: T::description().or(doc),
        input_schema,
        output_schema: T::Output::output_schema(),
        annotations: T::annotations(),
        icons: T::icons(),
        meta: T::meta(),
        extra: Map::new(),
    })
}

/// Adapts a [`TypedHandler`] to JSON: deserializes the arguments, serializes the output.
pub(crate) struct Typed<T>(pub(crate) Arc<T>);

impl<T> Handler for Typed<T>
where
    T: TypedHandler,
    T::Input: Send,
    T::Output: Send,
{
    fn call(
        &self,
        arguments: Value,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolResult, ToolError>> {
        let handler = Arc::clone(&self.0);
        Box::pin(async move {
            let input: T::Input = serde_json::from_value(arguments).map_err(|e| {
                ToolError::internal(format!(
                    "arguments passed the published schema but do not fit the Rust type {}: {e}; \
                     the schema and the type have drifted apart",
                    std::any::type_name::<T::Input>()
                ))
            })?;
            let output = handler.call(input, ctx).await?;
            output.into_result().map_err(ToolError::internal)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::unwrap_doc;

    #[test]
    fn wrapped_doc_lines_join_and_markdown_blocks_stay() {
        assert_eq!(
            unwrap_doc("Suggest gifts. Call this when the user asks; then\nlet the user pick one."),
            "Suggest gifts. Call this when the user asks; then let the user pick one."
        );
        assert_eq!(unwrap_doc("One.\n\nTwo\nlines."), "One.\n\nTwo lines.");
        assert_eq!(
            unwrap_doc("Sort by:\n- price, lowest\n  first\n- date\n1. then\n2) this"),
            "Sort by:\n- price, lowest first\n- date\n1. then\n2) this"
        );
        assert_eq!(
            unwrap_doc("Example:\n```json\n{\"a\": 1,\n \"b\": 2}\n```\nDone\nhere."),
            "Example:\n```json\n{\"a\": 1,\n \"b\": 2}\n```\nDone here."
        );
        assert_eq!(unwrap_doc("Hard  \nbreak"), "Hard  \nbreak");
        assert_eq!(unwrap_doc("# Title\nText"), "# Title\nText");
        assert_eq!(
            unwrap_doc("Code:\n\n    let x = 1;\n    let y = 2;"),
            "Code:\n\n    let x = 1;\n    let y = 2;"
        );
        assert_eq!(unwrap_doc("plain"), "plain");
        assert_eq!(unwrap_doc(""), "");
    }
}
