//! Google Gemini function declarations: `parameters` in the OpenAPI 3.0 subset (`gemini`) or
//! `parametersJsonSchema` in JSON Schema (`gemini-json`); `docs/providers.md#gemini`.

pub(crate) mod facts;

use super::{drop_unplaced, object, require_object_root};
use crate::json::{child_pointer, escape_token};
use crate::loss::{LossKind, LossLog, Unrepresentable};
use crate::lower::{Keyword, Lowerer, Profile, Refs, SourceMap, is_metadata};
use crate::provider::descriptor::{ItemParts, ModelApi, Provider, Schemas};
use crate::schema::{MAX_DEPTH, for_each_schema_object, resolve_local_ref};
use crate::tool::Tool;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// The Gemini provider with OpenAPI-subset `parameters`.
pub(crate) struct Parameters;

/// The Gemini provider with JSON Schema `parametersJsonSchema`.
pub(crate) struct JsonSchema;

impl Provider for Parameters {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        _options: super::ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        lower(tool, log)
    }

    fn item(&self, parts: ItemParts<'_>) -> Value {
        object([
            ("name", Some(json!(parts.name))),
            (
                "description",
                parts.tool.description.clone().map(Value::String),
            ),
            ("parameters", parts.input.map(Cow::into_owned)),
            ("response", parts.output.map(Cow::into_owned)),
        ])
    }

    fn wrap(&self, items: Vec<Value>) -> Value {
        wrap(items)
    }

    fn import(&self, item: Map<String, Value>) -> super::ImportedTool {
        import(&item)
    }

    fn parse_call(
        &self,
        call: &Map<String, Value>,
        pointer: &str,
    ) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
        parse_call(call, pointer)
    }

    /// A made-up id is never sent to Gemini.
    fn render_result(
        &self,
        id: Option<&str>,
        name: &str,
        result: &crate::result::ToolResult,
        _options: crate::provider::RenderOptions<'_>,
    ) -> Value {
        render_result(
            id.filter(|id| !crate::exchange::response::is_made_up_gemini_id(id)),
            name,
            result,
        )
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        Some(self)
    }
}

impl ModelApi for Parameters {
    fn required_options(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    fn build_request(
        &self,
        parts: crate::exchange::request::Parts<'_>,
    ) -> Result<Value, crate::exchange::request::Unsupported> {
        request(parts)
    }

    fn read_response(
        &self,
        body: &Map<String, Value>,
        reader: &mut crate::exchange::response::ReplyReader<'_>,
    ) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError>
    {
        read_response(body, reader)
    }
}

/// Gemini JSON reads and answers as Gemini does; only the lowering differs.
impl Provider for JsonSchema {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        _options: super::ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        lower_json(tool, log)
    }

    fn item(&self, parts: ItemParts<'_>) -> Value {
        object([
            ("name", Some(json!(parts.name))),
            (
                "description",
                parts.tool.description.clone().map(Value::String),
            ),
            ("parametersJsonSchema", parts.input.map(Cow::into_owned)),
            ("responseJsonSchema", parts.output.map(Cow::into_owned)),
        ])
    }

    fn wrap(&self, items: Vec<Value>) -> Value {
        wrap(items)
    }

    fn import(&self, item: Map<String, Value>) -> super::ImportedTool {
        Parameters.import(item)
    }

    fn parse_call(
        &self,
        call: &Map<String, Value>,
        pointer: &str,
    ) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
        Parameters.parse_call(call, pointer)
    }

    fn render_result(
        &self,
        id: Option<&str>,
        name: &str,
        result: &crate::result::ToolResult,
        options: crate::provider::RenderOptions<'_>,
    ) -> Value {
        Parameters.render_result(id, name, result, options)
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        Some(&Parameters)
    }
}

/// Formats the `Schema` proto documents: float and double for NUMBER, int32 and int64 for
/// INTEGER, enum and date-time for STRING.
const FORMATS: &[&str] = &["float", "double", "int32", "int64", "enum", "date-time"];

fn keyword(key: &str, value: &Value) -> Keyword {
    match key {
        "type" | "title" | "description" | "nullable" | "required" | "minItems" | "maxItems"
        | "minProperties" | "maxProperties" | "minLength" | "maxLength" | "pattern" | "minimum"
        | "maximum" | "propertyOrdering" | "default" | "example" => Keyword::Keep,
        "format" if value.as_str().is_some_and(|f| FORMATS.contains(&f)) => Keyword::Keep,
        "additionalProperties" => Keyword::Drop,
        k if is_metadata(k) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

/// The Gemini Developer API `Schema` proto: no references, no `additionalProperties`, one
/// type per schema with `nullable`, string enums.
pub(crate) const PARAMETERS: Profile = Profile {
    label: "Gemini `parameters`",
    refs: Refs::InlineAll,
    allow_recursion: false,
    one_of_to_any_of: true,
    merge_all_of: true,
    close_objects: false,
    require_all: false,
    optional_null_leaves_out: false,
    openapi: true,
    keyword,
    finish: Some(finish),
};

/// What Gemini `parameters` still refuses once a node is lowered: an ARRAY without `items`
/// (`docs/providers.md#gemini-parameters`; also an `array` branch of the `anyOf` written for a
/// type list, and an array whose tuple `items` went to the description) gets `"items": {}`;
/// a string `enum` without a `type` gets `"type": "string"`. An `enum` on a non-string type
/// is kept (the Developer API takes it with `format: "enum"`) and reported as at risk: the
/// Code Assist backend refuses it.
fn finish(node: &mut Map<String, Value>, pointer: &str, log: &mut LossLog<'_>) {
    if node.get("type").and_then(Value::as_str) == Some("array") && !node.contains_key("items") {
        node.insert("items".to_owned(), json!({}));
        log.push(
            &child_pointer(pointer, "items"),
            LossKind::Rewritten,
            "Gemini rejects an ARRAY without `items`; `\"items\": {}` (any item) is added",
        );
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        for branch in branches.iter_mut().filter_map(Value::as_object_mut) {
            if branch.get("type").and_then(Value::as_str) == Some("array")
                && !branch.contains_key("items")
            {
                branch.insert("items".to_owned(), json!({}));
                log.push(
                    &child_pointer(pointer, "type"),
                    LossKind::Rewritten,
                    "Gemini rejects an ARRAY without `items`; the `array` of the type list gets `\"items\": {}` (any item)",
                );
            }
        }
    }
    if node.contains_key("enum") && !node.contains_key("type") && !node.contains_key("anyOf") {
        node.insert("type".to_owned(), json!("string"));
        log.push(
            &child_pointer(pointer, "enum"),
            LossKind::Rewritten,
            "Gemini needs a `type` on every schema; the string `enum` gets `\"type\": \"string\"`",
        );
    }
    if node.contains_key("enum")
        && node
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t != "string")
    {
        log.push(
            &child_pointer(pointer, "enum"),
            LossKind::Kept,
            "the enum is sent as strings with `format: \"enum\"` under its non-string `type`; the Code Assist backend (Gemini CLI, Antigravity) refuses `enum` on any type but STRING (reported 2026-01-27, fixtures/rejections/gemini/enum-on-non-string-type.json, docs/providers.md#gemini-parameters)",
        );
    }
}

/// The schemas of `{"name", "description", "parameters", "response"}`, in the OpenAPI subset.
fn lower<'t>(tool: &'t Tool, log: &mut LossLog<'_>) -> Result<Schemas<'t>, Unrepresentable> {
    require_object_root(tool, "Gemini", log)?;
    let lowered = Lowerer::new(&PARAMETERS, &tool.input_schema, log).lower("/inputSchema")?;
    let parameters = lowered.schema;
    let has_properties = parameters
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if !has_properties && tool.input_schema.get("properties").is_some() {
        log.push(
            "/inputSchema/properties",
            LossKind::Dropped,
            "Gemini rejects an OBJECT schema with no properties; a tool without parameters has no `parameters`",
        );
    }
    if !has_properties && let Value::Object(root) = &parameters {
        // Without `parameters`, whatever else the root said (a description, `required`
        // names, `minProperties`) is not sent either. `type` and an empty `required` say
        // nothing a tool without parameters does not.
        for (key, value) in root {
            let says_nothing = key == "type"
                || key == "properties"
                || (key == "required" && value.as_array().is_some_and(Vec::is_empty));
            if !says_nothing {
                let origin = lowered
                    .sources
                    .original_in(&child_pointer("", key), &tool.input_schema);
                log.push(
                    &format!("/inputSchema{origin}"),
                    LossKind::Dropped,
                    format!(
                        "a tool without properties has no Gemini `parameters`, so `{key}` is not sent"
                    ),
                );
            }
        }
    }
    let (response, output_sources) = match &tool.output_schema {
        None => (None, SourceMap::default()),
        Some(schema) => match Lowerer::new(&PARAMETERS, schema, log).lower("/outputSchema") {
            Ok(response) => (Some(response.schema), response.sources),
            Err(problem) => {
                log.push(
                    "/outputSchema",
                    LossKind::Dropped,
                    format!(
                        "the output schema has no Gemini form ({}); `response` is left out",
                        problem.reason
                    ),
                );
                (None, SourceMap::default())
            }
        },
    };
    drop_unplaced(tool, "Gemini", true, log);
    Ok(Schemas {
        input: has_properties.then_some(Cow::Owned(parameters)),
        output: response.map(Cow::Owned),
        input_sources: lowered.sources,
        output_sources,
        input_inverse: lowered.inverse,
    })
}

/// The schemas of `{"name", "description", "parametersJsonSchema", "responseJsonSchema"}`:
/// JSON Schema, sent as written.
fn lower_json<'t>(tool: &'t Tool, log: &mut LossLog<'_>) -> Result<Schemas<'t>, Unrepresentable> {
    require_object_root(tool, "Gemini", log)?;
    drop_unplaced(tool, "Gemini", true, log);
    let (input, input_sources) = inline_refs_with_siblings(&tool.input_schema, "/inputSchema", log);
    let (output, output_sources) = match &tool.output_schema {
        Some(schema) => {
            let (output, sources) = inline_refs_with_siblings(schema, "/outputSchema", log);
            (Some(output), sources)
        }
        None => (None, SourceMap::default()),
    };
    Ok(Schemas {
        input: Some(input),
        output,
        input_sources,
        output_sources,
        ..Schemas::default()
    })
}

/// Keys `parametersJsonSchema` accepts beside `$ref`: `description`, `default`, and the
/// `$`-keywords (`docs/providers.md#gemini-parametersjsonschema`).
fn allowed_beside_ref(key: &str) -> bool {
    matches!(key, "description" | "default") || key.starts_with('$')
}

/// `parametersJsonSchema` refuses a `$ref` with other keys beside it (`If a schema node has
/// $ref set, then only description and default can be set alongside it`): each such node is
/// replaced by the definition it points to, with its own keys over the definition's. A
/// reference that points at nothing is left as it is (the schema's own error).
fn inline_refs_with_siblings<'s>(
    schema: &'s Value,
    base: &str,
    log: &mut LossLog<'_>,
) -> (Cow<'s, Value>, SourceMap) {
    let mut sources = SourceMap::default();
    let mut found = Vec::new();
    refs_with_siblings(schema, &mut found);
    if found.is_empty() {
        return (Cow::Borrowed(schema), sources);
    }
    // Definitions first, so that what is inlined from them is already in the accepted form.
    found.sort_by_key(|p| !(p.starts_with("/$defs/") || p.starts_with("/definitions/")));
    let mut out = schema.clone();
    for pointer in found {
        let Some(Value::Object(node)) = out.pointer(&pointer) else {
            continue;
        };
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            continue;
        };
        let Some(Value::Object(target)) = resolve_local_ref(&out, reference) else {
            continue;
        };
        if refers_to(&Value::Object(target.clone()), reference, 0) {
            // A recursive definition cannot be inlined: the reference stays, without the keys
            // beside it that the field refuses.
            let kept: Map<String, Value> = node
                .iter()
                .filter(|(k, _)| *k == "$ref" || allowed_beside_ref(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            log.push(
                &format!("{base}{pointer}"),
                LossKind::Dropped,
                format!(
                    "Gemini `parametersJsonSchema` takes only `description` and `default` beside `$ref`, and {reference} is recursive; only the reference is kept"
                ),
            );
            if let Some(slot) = out.pointer_mut(&pointer) {
                *slot = Value::Object(kept);
            }
            continue;
        }
        let mut merged = target.clone();
        for (key, value) in node {
            if key != "$ref" {
                merged.insert(key.clone(), value.clone());
            }
        }
        let reference = reference.to_owned();
        // What is inlined comes from the definition; the keys written beside the `$ref` keep
        // their own place.
        if let Some(definition) = reference.strip_prefix('#') {
            sources.record(pointer.clone(), definition.to_owned());
            for key in node.keys().filter(|k| *k != "$ref") {
                let at = format!("{pointer}/{}", escape_token(key));
                sources.record(at.clone(), at);
            }
        }
        log.push(
            &format!("{base}{pointer}/$ref"),
            LossKind::Inlined,
            format!(
                "Gemini `parametersJsonSchema` takes only `description` and `default` beside `$ref`; {reference} is inlined"
            ),
        );
        if let Some(slot) = out.pointer_mut(&pointer) {
            *slot = Value::Object(merged);
        }
    }
    (Cow::Owned(out), sources)
}

/// Whether `schema` holds a `$ref` to `reference` anywhere.
fn refers_to(schema: &Value, reference: &str, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| {
            (k == "$ref" && v.as_str() == Some(reference)) || refers_to(v, reference, depth + 1)
        }),
        Value::Array(items) => items.iter().any(|v| refers_to(v, reference, depth + 1)),
        _ => false,
    }
}

/// The pointers (relative to `schema`, parents first) of the `$ref` nodes with keys beside
/// them that `parametersJsonSchema` refuses.
fn refs_with_siblings(schema: &Value, out: &mut Vec<String>) {
    for_each_schema_object(schema, &mut |map, pointer| {
        // One scan of the keys rather than hashing "$ref" to look it up.
        if map.iter().any(|(k, v)| k == "$ref" && v.is_string())
            && map.keys().any(|k| !allowed_beside_ref(k))
        {
            out.push(pointer.to_owned());
        }
    });
}

/// Gemini's `tools` value: one `Tool` holding every declaration.
fn wrap(declarations: Vec<Value>) -> Value {
    // Moved in, not through `json!`, which would serialize a copy of every declaration.
    let mut tool = Map::new();
    tool.insert(
        "functionDeclarations".to_owned(),
        Value::Array(declarations),
    );
    Value::Array(vec![Value::Object(tool)])
}

/// Reads one function declaration, in the REST spelling (`parametersJsonSchema`) or the
/// Python SDK's (`parameters_json_schema`).
fn import(item: &Map<String, Value>) -> super::ImportedTool {
    let mut notes = Vec::new();
    let get = |camel: &str, snake: &str| {
        item.get(camel)
            .or_else(|| item.get(snake))
            .filter(|v| !v.is_null())
    };
    for key in item.keys() {
        if !matches!(
            key.as_str(),
            "name"
                | "description"
                | "parameters"
                | "parametersJsonSchema"
                | "parameters_json_schema"
                | "response"
                | "responseJsonSchema"
                | "response_json_schema"
        ) {
            notes.push((
                child_pointer("", key),
                format!("the Gemini field `{key}` has no place in the contract"),
            ));
        }
    }
    let input_schema = match (
        get("parametersJsonSchema", "parameters_json_schema"),
        item.get("parameters"),
    ) {
        (Some(schema), _) => schema.clone(),
        (None, Some(schema)) if !schema.is_null() => from_openapi(schema, 0),
        _ => json!({ "type": "object" }),
    };
    let output_schema = match (
        get("responseJsonSchema", "response_json_schema"),
        item.get("response"),
    ) {
        (Some(schema), _) => Some(schema.clone()),
        (None, Some(schema)) if !schema.is_null() => Some(from_openapi(schema, 0)),
        _ => None,
    };
    let tool = Tool {
        name: super::string_field(item, "name")?,
        title: None,
        description: super::optional_string(item, "description")?,
        input_schema,
        output_schema,
        annotations: None,
        icons: None,
        meta: None,
        extra: Map::new(),
    };
    Ok((tool, notes))
}

/// Turns an OpenAPI-subset schema back into JSON Schema: lower-case types, `nullable` as a
/// type list, `format: "enum"` values back to numbers or booleans, `example` as `examples`.
/// This is the inverse of what [`PARAMETERS`] writes, so a round trip gives the schema back.
fn from_openapi(schema: &Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return schema.clone();
    }
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    let nullable = map.get("nullable") == Some(&Value::Bool(true));
    let ty = map
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    let enum_of_values = map.get("format").and_then(Value::as_str) == Some("enum")
        && matches!(ty.as_deref(), Some("integer" | "number" | "boolean"));
    for (key, value) in map {
        match key.as_str() {
            "nullable" => {}
            "propertyOrdering" | "property_ordering" => {}
            "type" => {
                let t = ty.clone().map_or_else(|| value.clone(), Value::String);
                out.insert(key.clone(), if nullable { json!([t, "null"]) } else { t });
            }
            "format" if enum_of_values => {}
            "enum" if enum_of_values => {
                let values = value
                    .as_array()
                    .map(|vs| {
                        vs.iter()
                            .map(|v| match v.as_str().map(serde_json::from_str::<Value>) {
                                Some(Ok(parsed)) => parsed,
                                _ => v.clone(),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                out.insert(key.clone(), Value::Array(values));
            }
            // The proto's int64 fields travel as JSON strings ("minLength": "2").
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
            | "maxProperties"
                if value.is_string() =>
            {
                let parsed = value.as_str().and_then(|s| s.parse::<u64>().ok());
                out.insert(
                    key.clone(),
                    parsed.map_or_else(|| value.clone(), Value::from),
                );
            }
            "example" => {
                out.insert("examples".to_owned(), json!([value]));
            }
            "properties" => {
                let props = value
                    .as_object()
                    .map(|p| {
                        p.iter()
                            .map(|(k, v)| (k.clone(), from_openapi(v, depth + 1)))
                            .collect()
                    })
                    .unwrap_or_default();
                out.insert(key.clone(), Value::Object(props));
            }
            "items" => {
                out.insert(key.clone(), from_openapi(value, depth + 1));
            }
            "anyOf" | "any_of" => {
                let branches = value
                    .as_array()
                    .map(|b| b.iter().map(|v| from_openapi(v, depth + 1)).collect())
                    .unwrap_or_default();
                out.insert("anyOf".to_owned(), Value::Array(branches));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if nullable
        && ty.is_none()
        && let Some(Value::Array(branches)) = out.get_mut("anyOf")
    {
        branches.push(json!({ "type": "null" }));
    }
    Value::Object(out)
}

/// Reads a `functionCall` part (or a bare `FunctionCall`): `args` is an object, `id` optional.
fn parse_call(
    part: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
    use crate::exchange::call::{CallError, arguments_from_value, string_field};
    let (call, at) = match part
        .get("functionCall")
        .or_else(|| part.get("function_call"))
    {
        Some(Value::Object(call)) => (call, format!("{pointer}/functionCall")),
        Some(_) => {
            return Err(CallError::not_a_call(
                pointer,
                "`functionCall` must be an object",
            ));
        }
        None => (part, pointer.to_owned()),
    };
    Ok(crate::exchange::call::ToolCall {
        format: crate::provider::Target::Gemini,
        id: call.get("id").and_then(Value::as_str).map(str::to_owned),
        name: string_field(call, "name", &at)?,
        arguments: match call.get("args") {
            Some(Value::Null) | None => Ok(json!({})),
            Some(args) => arguments_from_value(args.clone()),
        },
    })
}

/// A `functionResponse` part: the result under `response.output`, an error under
/// `response.error` (the response must be an object).
fn render_result(id: Option<&str>, name: &str, result: &crate::result::ToolResult) -> Value {
    let response = if result.is_error {
        json!({ "error": result.text_content() })
    } else {
        match &result.structured {
            Some(value) => json!({ "output": value }),
            None => json!({ "output": result.text_content() }),
        }
    };
    let mut call = Map::new();
    if let Some(id) = id {
        call.insert("id".to_owned(), json!(id));
    }
    call.insert("name".to_owned(), json!(name));
    call.insert("response".to_owned(), response);
    json!({ "functionResponse": Value::Object(call) })
}

/// `toolConfig.functionCallingConfig`: `AUTO`, `NONE`, `ANY`, with `allowedFunctionNames` for a
/// named tool or a subset. An allowed subset the model need not call is `VALIDATED`: the
/// `generativelanguage` v1beta discovery document says `allowedFunctionNames` "should only be
/// set when the Mode is ANY or VALIDATED" (python-genai 3.6.1's `FunctionCallingConfig`
/// docstring still says ANY only, while its `FunctionCallingConfigMode.VALIDATED` docstring
/// says the names restrict it too).
fn tool_config(
    choice: &crate::exchange::request::Choice,
    parallel: Option<bool>,
) -> Result<Value, crate::exchange::request::Unsupported> {
    use crate::exchange::request::{Choice, Unsupported};
    // With no call at all there is nothing to limit.
    if parallel == Some(false) && *choice != Choice::None {
        return Err(Unsupported {
            setting: "parallel_tool_calls false".to_owned(),
            reason: "Gemini has no setting that limits a turn to one function call; leave it unset and handle every call"
                .to_owned(),
        });
    }
    let config = match choice {
        Choice::Auto => json!({ "mode": "AUTO" }),
        Choice::None => json!({ "mode": "NONE" }),
        Choice::Required => json!({ "mode": "ANY" }),
        Choice::Tool(name) => json!({ "mode": "ANY", "allowedFunctionNames": [name] }),
        Choice::Allowed { tools, required } => json!({
            "mode": if *required { "ANY" } else { "VALIDATED" },
            "allowedFunctionNames": tools,
        }),
    };
    Ok(json!({ "functionCallingConfig": config }))
}

/// A `generateContent` request body: `systemInstruction` apart; the model's turns as
/// `role: "model"` contents whose `functionCall` parts keep their `thoughtSignature`; all the
/// results of a turn's calls as `functionResponse` parts of one user turn, in the order of the
/// calls (`docs/providers.md#gemini-requests`). The model is in the URL, not the body.
fn request(
    parts: crate::exchange::request::Parts<'_>,
) -> Result<Value, crate::exchange::request::Unsupported> {
    use crate::exchange::request::Turn;
    let tool_config = parts
        .choice
        .as_ref()
        .map(|c| tool_config(c, parts.parallel))
        .transpose()?;
    let mut contents: Vec<(&str, Vec<Value>)> = Vec::new();
    let mut push = |role: &'static str, new: Vec<Value>| match contents.last_mut() {
        Some((last, list)) if *last == role => list.extend(new),
        _ => contents.push((role, new)),
    };
    for turn in parts.turns {
        match turn {
            Turn::User(text) => push("user", vec![json!({ "text": text })]),
            Turn::Assistant(assistant) => {
                let mut list: Vec<Value> = assistant.reasoning.into_iter().cloned().collect();
                if let Some(text) = assistant.text {
                    list.push(json!({ "text": text }));
                }
                for call in assistant.calls {
                    let mut function_call = Map::new();
                    if let Some(id) = call.id {
                        function_call.insert("id".to_owned(), json!(id));
                    }
                    function_call.insert("name".to_owned(), json!(call.name));
                    function_call.insert("args".to_owned(), call.arguments);
                    let mut part = Map::new();
                    part.insert("functionCall".to_owned(), Value::Object(function_call));
                    if let Some(signature) = call.signature {
                        part.insert("thoughtSignature".to_owned(), json!(signature));
                    }
                    list.push(Value::Object(part));
                }
                push("model", list);
            }
            Turn::Results(results) => push("user", results),
        }
    }
    let contents: Vec<Value> = contents
        .into_iter()
        .map(|(role, parts)| json!({ "role": role, "parts": parts }))
        .collect();
    Ok(object([
        (
            "generationConfig",
            parts.max_tokens.map(|n| json!({ "maxOutputTokens": n })),
        ),
        (
            "systemInstruction",
            parts.system.map(|s| json!({ "parts": [{ "text": s }] })),
        ),
        ("tools", parts.tools),
        ("toolConfig", tool_config),
        ("contents", Some(Value::Array(contents))),
    ]))
}

/// Reads a `generateContent` response: `candidates[0].content.parts` (`text`, `functionCall`
/// with its `thoughtSignature`) and `finishReason`; a prompt blocked before any candidate is a
/// refusal (`promptFeedback.blockReason`).
fn read_response(
    body: &Map<String, Value>,
    reader: &mut crate::exchange::response::ReplyReader<'_>,
) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError> {
    use crate::exchange::response::{ResponseError, StopKind, StopReason, array_at};
    let candidates = match body.get("candidates") {
        None | Some(Value::Null) => {
            let blocked = body
                .get("promptFeedback")
                .and_then(|f| f.get("blockReason"))
                .and_then(Value::as_str);
            return match blocked {
                Some(reason) => Ok(StopReason::new(
                    StopKind::Refusal,
                    format!("blockReason: {reason}"),
                )),
                None => Err(ResponseError::shape(
                    "",
                    "no `candidates`: this is not a Gemini generateContent response",
                )),
            };
        }
        Some(_) => array_at(body, "candidates", "", "a Gemini generateContent response")?,
    };
    let Some(candidate) = candidates.first() else {
        return Err(ResponseError::shape(
            "/candidates",
            "the response has no candidate",
        ));
    };
    for i in 1..candidates.len() {
        reader.skip(
            format!("/candidates/{i}"),
            "only the first candidate is read (the request asked for several)",
        );
    }
    let parts = match candidate.get("content").and_then(|c| c.get("parts")) {
        None | Some(Value::Null) => &Vec::new(),
        Some(Value::Array(parts)) => parts,
        Some(_) => {
            return Err(ResponseError::shape(
                "/candidates/0/content/parts",
                "`parts` must be an array",
            ));
        }
    };
    for (i, part) in parts.iter().enumerate() {
        let at = format!("/candidates/0/content/parts/{i}");
        let Some(obj) = part.as_object() else {
            return Err(ResponseError::shape(at, "a part is a JSON object"));
        };
        let signature = obj
            .get("thoughtSignature")
            .or_else(|| obj.get("thought_signature"))
            .and_then(Value::as_str);
        if obj.get("thought") == Some(&Value::Bool(true)) {
            reader.skip(
                at,
                "a thought summary is for people, not the conversation; it is not sent back",
            );
        } else if obj.contains_key("functionCall") || obj.contains_key("function_call") {
            let sent = obj
                .get("functionCall")
                .or_else(|| obj.get("function_call"))
                .and_then(|c| c.get("args"));
            reader.call(parse_call(obj, &at)?, sent, signature);
        } else if let Some(text) = obj.get("text").and_then(Value::as_str) {
            reader.text(text);
            if signature.is_some() {
                reader.skip(
                    format!("{at}/thoughtSignature"),
                    "the signature of a text part is not kept; Gemini requires the signatures of function calls only",
                );
            }
        } else if signature.is_some() && obj.len() == 1 {
            reader.skip(
                at,
                "a part with only a thought signature is not kept; Gemini requires the signatures of function calls only",
            );
        } else {
            let kind = obj.keys().next().map_or("empty", String::as_str);
            reader.skip(
                at,
                format!("a `{kind}` part is not part of the conversation; it is not sent back"),
            );
        }
    }
    if let Some(message) = candidate.get("finishMessage").and_then(Value::as_str) {
        reader.skip(
            "/candidates/0/finishMessage",
            format!("the finish message is not kept: {message}"),
        );
    }
    let finish = candidate.get("finishReason").and_then(Value::as_str);
    let kind = match finish {
        Some("MAX_TOKENS") => StopKind::MaxTokens,
        Some("MALFORMED_FUNCTION_CALL" | "UNEXPECTED_TOOL_CALL") => StopKind::MalformedToolCall,
        Some(
            "SAFETY"
            | "RECITATION"
            | "LANGUAGE"
            | "BLOCKLIST"
            | "PROHIBITED_CONTENT"
            | "SPII"
            | "IMAGE_SAFETY"
            | "IMAGE_PROHIBITED_CONTENT"
            | "MODEL_ARMOR",
        ) => StopKind::Refusal,
        // Gemini ends a turn of function calls with STOP too.
        Some("STOP") | None if reader.has_calls() => StopKind::ToolCalls,
        Some("STOP") | None => StopKind::EndTurn,
        Some(_) => StopKind::Other,
    };
    Ok(StopReason {
        kind,
        raw: finish.map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn only_refs_with_refused_siblings_are_inlined() {
        let schema = json!({
            "type": "object",
            "properties": {
                "kept": { "$ref": "#/$defs/Option", "description": "Taken as it is" },
                "inlined": { "$ref": "#/$defs/Option", "type": "object" }
            },
            "$defs": { "Option": { "type": "object", "properties": { "label": { "type": "string" } } } }
        });
        let mut log = LossLog::new("question", 0);
        let (out, sources) = inline_refs_with_siblings(&schema, "/inputSchema", &mut log);
        assert_eq!(out["properties"]["kept"], schema["properties"]["kept"]);
        assert_eq!(
            sources.original("/properties/inlined/properties/label", &schema),
            "/$defs/Option/properties/label"
        );
        assert_eq!(
            sources.original("/properties/inlined/type", &schema),
            "/properties/inlined/type"
        );
        assert_eq!(
            out["properties"]["inlined"],
            json!({ "type": "object", "properties": { "label": { "type": "string" } } })
        );
        let losses = log.into_losses();
        assert_eq!(losses.len(), 1);
        assert_eq!(losses[0].pointer, "/inputSchema/properties/inlined/$ref");
    }

    #[test]
    fn a_recursive_ref_keeps_only_the_reference() {
        let schema = json!({
            "type": "object",
            "properties": { "root": { "$ref": "#/$defs/Node", "type": "object" } },
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": { "child": { "$ref": "#/$defs/Node", "type": "object" } }
                }
            }
        });
        let mut log = LossLog::new("tree", 0);
        let (out, _) = inline_refs_with_siblings(&schema, "/inputSchema", &mut log);
        assert_eq!(out["properties"]["root"], json!({ "$ref": "#/$defs/Node" }));
        assert_eq!(
            out["$defs"]["Node"]["properties"]["child"],
            json!({ "$ref": "#/$defs/Node" })
        );
        assert_eq!(log.into_losses().len(), 2);
    }

    #[test]
    fn what_a_tool_without_properties_said_besides_is_reported() {
        // Found by the export fuzz target: the root's other keywords went with `parameters`
        // and the loss report did not say so.
        let tool: Tool = serde_json::from_value(json!({
            "name": "sync",
            "inputSchema": {
                "type": "object",
                "description": "Syncs now",
                "required": [],
                "minProperties": 1
            }
        }))
        .unwrap();
        let mut log = LossLog::new("sync", 0);
        let schemas = lower(&tool, &mut log).unwrap();
        assert!(schemas.input.is_none());
        let pointers: Vec<String> = log.into_losses().into_iter().map(|l| l.pointer).collect();
        assert!(
            pointers.contains(&"/inputSchema/description".to_owned()),
            "{pointers:?}"
        );
        assert!(
            !pointers.contains(&"/inputSchema/type".to_owned()),
            "{pointers:?}"
        );
        assert!(
            !pointers.contains(&"/inputSchema/required".to_owned()),
            "{pointers:?}"
        );
    }
}
