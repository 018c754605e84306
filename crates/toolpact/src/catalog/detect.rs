//! Which items of a document are tools, and in which provider's format each is written.

use crate::catalog::source::{Seg, lookup};
use crate::json::json_type;
use crate::provider::Target;
use serde_json::{Map, Value};

/// One item found in a document: its path and the format to read it with.
pub(crate) struct Found {
    pub(crate) path: Vec<Seg>,
    pub(crate) format: Target,
}

const NOT_TOOLS: &str = "no tools found; toolpact reads an MCP tools/list result (or a JSON-RPC response with one), \
    a tools array of MCP, OpenAI, Anthropic or Gemini, or a request body with `tools`";

/// The items of a document, each with the format to read it in (detected, or `forced`), and
/// in `skipped` the items that are not function tools; or the path and message of what is not
/// a tool list.
pub(crate) fn find_items(
    doc: &Value,
    forced: Option<Target>,
    skipped: &mut Vec<(Vec<Seg>, String)>,
) -> Result<Vec<Found>, (Vec<Seg>, String)> {
    let mut found = Vec::new();
    let list_path: Vec<Seg> = match doc {
        Value::Array(_) => Vec::new(),
        Value::Object(obj) => {
            if obj.get("tools").is_some_and(Value::is_array) {
                vec![Seg::Key("tools".to_owned())]
            } else if obj
                .get("result")
                .and_then(|r| r.get("tools"))
                .is_some_and(Value::is_array)
            {
                vec![Seg::Key("result".to_owned()), Seg::Key("tools".to_owned())]
            } else if let Some(error) = obj.get("error").filter(|_| obj.contains_key("jsonrpc")) {
                return Err((
                    Vec::new(),
                    format!("the document is a JSON-RPC error response, not a tool list: {error}"),
                ));
            } else if gemini_declarations(obj).is_some() {
                collect_gemini(obj, Vec::new(), &mut found);
                return Ok(found);
            } else if forced.is_some() || detect(obj).is_some() {
                let format = forced.or_else(|| detect(obj)).unwrap_or(Target::Mcp);
                found.push(Found {
                    path: Vec::new(),
                    format,
                });
                return Ok(found);
            } else {
                return Err((Vec::new(), NOT_TOOLS.to_owned()));
            }
        }
        _ => {
            return Err((
                Vec::new(),
                format!("{NOT_TOOLS}; found a JSON {}", json_type(doc)),
            ));
        }
    };
    let Some(Value::Array(items)) = lookup(doc, &list_path) else {
        return Err((Vec::new(), NOT_TOOLS.to_owned()));
    };
    for (i, item) in items.iter().enumerate() {
        let mut path = list_path.clone();
        path.push(Seg::Index(i));
        let Some(obj) = item.as_object() else {
            return Err((
                path,
                format!(
                    "expected a tool (a JSON object), found a JSON {}",
                    json_type(item)
                ),
            ));
        };
        if gemini_declarations(obj).is_some() {
            collect_gemini(obj, path, &mut found);
        } else if let Some(format) = forced.or_else(|| detect(obj)) {
            if (format == Target::OpenAiResponses || format == Target::OpenAiChat)
                && let Some(kind) = obj
                    .get("type")
                    .and_then(Value::as_str)
                    .filter(|t| *t != "function")
            {
                skipped.push((
                    path,
                    format!("skipped the OpenAI `{kind}` tool: only function tools have a schema"),
                ));
                continue;
            }
            found.push(Found { path, format });
        } else if let Some(kind) = obj.get("type").and_then(Value::as_str) {
            skipped.push((
                path,
                format!(
                    "skipped the `{kind}` tool: it is a built-in tool, not a function with a schema"
                ),
            ));
        } else if let Some(key) = obj.keys().find(|k| GEMINI_BUILT_INS.contains(&k.as_str())) {
            skipped.push((
                path,
                format!("skipped the Gemini `{key}` tool: it is a built-in tool, not a function"),
            ));
        } else if let Some(name) = obj.get("name").and_then(Value::as_str) {
            return Err((
                path,
                format!(
                    "the tool {name:?} has no schema: an MCP tool needs `inputSchema`, an Anthropic tool `input_schema`, \
                 an OpenAI tool `type: \"function\"` with `parameters`"
                ),
            ));
        } else {
            return Err((
                path,
                "not a tool in any format toolpact reads (an MCP tool has `inputSchema`, an OpenAI tool `type: \"function\"`, \
                 an Anthropic tool `input_schema`, a Gemini tool `functionDeclarations`)".to_owned(),
            ));
        }
    }
    Ok(found)
}

const GEMINI_BUILT_INS: &[&str] = &[
    "googleSearch",
    "google_search",
    "googleSearchRetrieval",
    "google_search_retrieval",
    "codeExecution",
    "code_execution",
    "retrieval",
    "urlContext",
    "url_context",
    "googleMaps",
    "google_maps",
    "computerUse",
    "computer_use",
    "fileSearch",
    "file_search",
];

fn gemini_declarations(obj: &Map<String, Value>) -> Option<(&'static str, &Vec<Value>)> {
    for key in ["functionDeclarations", "function_declarations"] {
        if let Some(Value::Array(decls)) = obj.get(key) {
            return Some((key, decls));
        }
    }
    None
}

fn collect_gemini(obj: &Map<String, Value>, path: Vec<Seg>, found: &mut Vec<Found>) {
    if let Some((key, decls)) = gemini_declarations(obj) {
        for j in 0..decls.len() {
            let mut p = path.clone();
            p.push(Seg::Key(key.to_owned()));
            p.push(Seg::Index(j));
            found.push(Found {
                path: p,
                format: Target::Gemini,
            });
        }
    }
}

/// Which format one tool object is written in, from the keys only it has.
fn detect(obj: &Map<String, Value>) -> Option<Target> {
    if obj.contains_key("inputSchema") {
        Some(Target::Mcp)
    } else if obj.contains_key("input_schema") {
        Some(Target::Anthropic)
    } else if obj.get("type").and_then(Value::as_str) == Some("function") {
        if obj.get("function").is_some_and(Value::is_object) {
            Some(Target::OpenAiChat)
        } else {
            Some(Target::OpenAiResponses)
        }
    } else if obj.contains_key("name")
        && !obj.contains_key("type")
        && [
            "parameters",
            "parametersJsonSchema",
            "parameters_json_schema",
            "response",
            "responseJsonSchema",
        ]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        Some(Target::Gemini)
    } else {
        None
    }
}
