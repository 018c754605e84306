//! Tool definitions read from Python (dicts, JSON text, files, pydantic models, MCP `Tool`
//! objects), and [`Tools`]: a catalog whose schemas are compiled once, validating calls.

use crate::errors::{CallError, CatalogError, ToolpactError};
use crate::value::{to_json, to_python};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};
use serde_json::Value;
use toolpact::Outcome as CallOutcome;
use toolpact::{
    ArgumentError as RustArgumentError, Catalog, DispatchOptions, ExportOptions, Registry, Repair,
    Target, ToolCall, check_call, export, parse_call,
};
use toolpact_lint::Sources;

/// The name tools given as Python values (or JSON text) have in origins and reports.
pub const PYTHON_SOURCE: &str = "<tools>";

/// Tools read from Python, with the text of each document for reports that quote it.
#[derive(Clone)]
pub struct Input {
    /// The tools, each with its origin.
    pub catalog: Catalog,
    /// The text of each document read, by name.
    pub sources: Sources,
}

/// Reads tools from whatever Python gave: a [`Tools`] handle, a path (`os.PathLike`), JSON
/// text (`str` or `bytes`), or Python values — a list of tools, a single tool, or any document
/// `toolpact convert` reads — where a tool may also be a pydantic model class (its JSON
/// Schema is the input schema) or a pydantic model instance such as `mcp.types.Tool`.
pub fn read_tools(tools: &Bound<'_, PyAny>, format: Option<Target>) -> PyResult<Input> {
    if let Ok(handle) = tools.cast::<Tools>() {
        return Ok(handle.get().input.clone());
    }
    if tools.hasattr("__fspath__")? {
        let path: std::path::PathBuf = tools.extract()?;
        let file = path.display().to_string();
        let bytes = std::fs::read(&path)
            .map_err(|e| ToolpactError::new_err(format!("cannot read {file}: {e}")))?;
        return from_bytes(&bytes, &file, format);
    }
    if let Ok(text) = tools.cast::<PyString>() {
        let text = text.to_str()?;
        return from_bytes(text.as_bytes(), PYTHON_SOURCE, format).map_err(|error| {
            // A str is JSON text; one that cannot begin a JSON document is most likely a file
            // name given where a path was meant.
            if text.trim_start().starts_with(['{', '[']) {
                error
            } else {
                CatalogError::new_err(format!(
                    "{}\n(a str is read as JSON text; to read the file {text:?}, pass a path: \
                     pathlib.Path({text:?}))",
                    error.value(tools.py())
                ))
            }
        });
    }
    if let Ok(bytes) = tools.cast::<PyBytes>() {
        return from_bytes(bytes.as_bytes(), PYTHON_SOURCE, format);
    }
    let value = if let Ok(list) = tools.cast::<PyList>() {
        let mut items = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            items.push(tool_value(&item, &format!("the tools' item {i}"))?);
        }
        Value::Array(items)
    } else {
        tool_value(tools, "the tools")?
    };
    // Pretty, so that a report quoting a line of it quotes something readable.
    let text =
        serde_json::to_string_pretty(&value).map_err(|e| ToolpactError::new_err(e.to_string()))?;
    from_bytes(text.as_bytes(), PYTHON_SOURCE, format)
}

fn from_bytes(bytes: &[u8], file: &str, format: Option<Target>) -> PyResult<Input> {
    let catalog = Catalog::from_slice(bytes, file, format)
        .map_err(|e| CatalogError::new_err(e.to_string()))?;
    let mut sources = Sources::new();
    if let Ok(text) = std::str::from_utf8(bytes) {
        sources.insert(file.to_owned(), text.to_owned());
    }
    Ok(Input { catalog, sources })
}

/// One tool as JSON: a pydantic model class becomes a tool named after the class, its JSON
/// Schema the input schema and its docstring the description; anything else converts as a
/// value.
fn tool_value(item: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if item.is_instance_of::<PyType>() && item.hasattr("model_json_schema")? {
        let mut schema = to_json(&item.call_method0("model_json_schema")?, what)?;
        let name: String = item.getattr("__name__")?.extract()?;
        let mut tool = serde_json::Map::new();
        tool.insert("name".to_owned(), Value::String(name));
        if let Some(object) = schema.as_object_mut() {
            // The class name is the tool's name; the docstring, its description.
            object.remove("title");
            if let Some(description) = object.remove("description") {
                tool.insert("description".to_owned(), description);
            }
        }
        tool.insert("inputSchema".to_owned(), schema);
        return Ok(Value::Object(tool));
    }
    to_json(item, what)
}

/// Reads a target's name (`openai`, `anthropic-strict`…) as the command line does.
pub fn parse_target(name: &str) -> PyResult<Target> {
    name.parse::<Target>()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

/// Tool definitions compiled once: each tool's schemas are compiled when the handle is made,
/// so that every `validate` after that only checks.
///
/// `Tools(tools, *, target=None, strict=False)` reads `tools` as every function of this
/// package does (a list of tool dicts, a document in any provider's format, JSON text, a
/// path, pydantic models, `mcp.types.Tool` objects). With `target`, calls are read back
/// through that export (a null for an optional property in strict mode is the property
/// left out; an enum value Gemini sends as a string becomes the value) before validation.
#[pyclass(module = "toolpact", frozen)]
pub struct Tools {
    input: Input,
    registry: Registry,
    options: DispatchOptions,
    lenient: DispatchOptions,
}

impl Tools {
    /// The tools, read.
    pub fn input(&self) -> &Input {
        &self.input
    }
}

#[pymethods]
impl Tools {
    #[new]
    #[pyo3(signature = (tools, *, target = None, strict = false))]
    fn new(tools: &Bound<'_, PyAny>, target: Option<&str>, strict: bool) -> PyResult<Tools> {
        let input = read_tools(tools, None)?;
        let registry = Registry::from_catalog(&input.catalog)
            .map_err(|e| CatalogError::new_err(e.to_string()))?;
        let read_back = match target {
            Some(target) => {
                let target = parse_target(target)?;
                let export = export(registry.tools(), target, ExportOptions { strict })
                    .map_err(|e| ToolpactError::new_err(e.to_string()))?;
                Some(export.read_back)
            }
            None => None,
        };
        let options = DispatchOptions {
            read_back: read_back.clone(),
            ..DispatchOptions::default()
        };
        let lenient = DispatchOptions {
            lenient: true,
            read_back,
            ..DispatchOptions::default()
        };
        Ok(Tools {
            input,
            registry,
            options,
            lenient,
        })
    }

    /// Checks one tool call, in any provider's shape (an OpenAI Responses `function_call`
    /// item, a Chat `tool_calls` entry, an Anthropic `tool_use` block, a Gemini
    /// `functionCall` part, MCP `tools/call` params), against the tools, as `toolpact
    /// validate` does. With `lenient`, JSON-encoded strings and numeric strings are repaired
    /// and each repair is reported. Raises `CallError` when the value is not a call at all.
    #[pyo3(signature = (call, *, lenient = false))]
    fn validate(&self, call: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Validation> {
        let value = to_json(call, "the call")?;
        let call = parse_call(&value, None, "").map_err(|e| CallError::new_err(e.to_string()))?;
        let options = if lenient {
            &self.lenient
        } else {
            &self.options
        };
        let checked = check_call(&self.registry, &call, options);
        Ok(Validation::new(call, checked))
    }

    /// The tool names, in the order they were read.
    fn names(&self) -> Vec<String> {
        self.registry.tools().map(|t| t.name.clone()).collect()
    }

    /// The tools as MCP tool dicts, in the order they were read.
    fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for tool in self.registry.tools() {
            list.append(crate::value::serialized(py, tool)?)?;
        }
        Ok(list)
    }

    fn __len__(&self) -> usize {
        self.registry.len()
    }

    fn __contains__(&self, name: &str) -> bool {
        self.registry.get(name).is_some()
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.registry.tools().map(|t| t.name.as_str()).collect();
        format!("Tools({})", names.join(", "))
    }
}

/// The result of checking one call: whether it is valid, the typed errors, and the message a
/// model can act on.
#[pyclass(module = "toolpact", frozen)]
pub struct Validation {
    call: ToolCall,
    tool: Option<String>,
    outcome: CallOutcome,
    arguments: Option<Value>,
    repairs: Vec<Repair>,
    read_back: Vec<toolpact::ReadBackStep>,
    message: Option<String>,
}

impl Validation {
    fn new(call: ToolCall, checked: toolpact::Checked<'_>) -> Validation {
        Validation {
            tool: checked.tool.map(str::to_owned),
            outcome: checked.outcome,
            arguments: checked.arguments,
            repairs: checked.repairs,
            read_back: checked.read_back,
            message: checked.message,
            call,
        }
    }
}

/// The outcome's name, as `toolpact validate --format json` writes it.
fn outcome_name(outcome: &CallOutcome) -> String {
    match serde_json::to_value(outcome) {
        Ok(Value::Object(map)) => map
            .get("outcome")
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_owned(),
        _ => "unknown".to_owned(),
    }
}

#[pymethods]
impl Validation {
    /// Whether the call names a known tool and its arguments are valid.
    #[getter]
    fn valid(&self) -> bool {
        self.outcome == CallOutcome::Ok
    }

    /// `ok`, `unknown-tool`, `malformed-arguments` or `invalid-arguments`.
    #[getter]
    fn outcome(&self) -> String {
        outcome_name(&self.outcome)
    }

    /// The tool's own name, when the call named a known tool (possibly by an exported name).
    #[getter]
    fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// The name the call used.
    #[getter]
    fn name(&self) -> &str {
        &self.call.name
    }

    /// The call's id, when the provider gave one.
    #[getter]
    fn call_id(&self) -> Option<&str> {
        self.call.id.as_deref()
    }

    /// The provider shape the call came in (`openai`, `anthropic`, `gemini`, `mcp`…).
    #[getter]
    fn format(&self) -> &'static str {
        self.call.format.as_str()
    }

    /// The typed errors of the arguments (empty unless `outcome` is `invalid-arguments`).
    #[getter]
    fn errors(&self, py: Python<'_>) -> PyResult<Vec<ArgumentError>> {
        match &self.outcome {
            CallOutcome::InvalidArguments { errors } => errors
                .errors
                .iter()
                .map(|e| ArgumentError::new(py, e))
                .collect(),
            _ => Ok(Vec::new()),
        }
    }

    /// The closest tool names, for an unknown tool.
    #[getter]
    fn suggestions(&self) -> Vec<String> {
        match &self.outcome {
            CallOutcome::UnknownTool { suggestions } => suggestions.clone(),
            _ => Vec::new(),
        }
    }

    /// The text for the model when the call is not valid (what the tool result says).
    #[getter]
    fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The arguments as validated: after reading back and lenient repairs, or as sent.
    #[getter]
    fn arguments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match (&self.arguments, &self.call.arguments) {
            (Some(arguments), _) | (None, Ok(arguments)) => to_python(py, arguments),
            (None, Err(_)) => Ok(py.None().into_bound(py)),
        }
    }

    /// The repairs lenient mode made: dicts with `pointer`, `from` and `to`.
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::value::serialized(py, &self.repairs)
    }

    /// The changes made reading the call back through the export it answers: dicts with
    /// `pointer`, `from`, `to` (absent when the argument was left out) and `why`.
    #[getter]
    fn read_back<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::value::serialized(py, &self.read_back)
    }

    /// The report `toolpact validate --format json` writes for this call.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("tool", self.tool.as_deref())?;
        dict.set_item("name", &self.call.name)?;
        dict.set_item("call_id", self.call.id.as_deref())?;
        dict.set_item("format", self.call.format.as_str())?;
        dict.set_item("valid", self.valid())?;
        if let Ok(Value::Object(outcome)) = serde_json::to_value(&self.outcome) {
            for (key, value) in &outcome {
                dict.set_item(key, to_python(py, value)?)?;
            }
        }
        dict.set_item("repairs", self.repairs(py)?)?;
        if !self.read_back.is_empty() {
            dict.set_item("read_back", self.read_back(py)?)?;
            if let Some(arguments) = &self.arguments {
                dict.set_item("arguments", to_python(py, arguments)?)?;
            }
        }
        if let Some(message) = &self.message {
            dict.set_item("message", message)?;
        }
        Ok(dict)
    }

    fn __bool__(&self) -> bool {
        self.valid()
    }

    fn __repr__(&self) -> String {
        match &self.message {
            None => format!("Validation(valid, tool={:?})", self.call.name),
            Some(message) => format!("Validation({}, {message:?})", self.outcome()),
        }
    }
}

/// One argument that breaks the schema: where, what kind of error, what the schema expects,
/// what the call sent, and the message.
#[pyclass(module = "toolpact", frozen, get_all)]
pub struct ArgumentError {
    /// JSON pointer to the argument (`""` for the arguments object itself).
    pointer: String,
    /// The kind: `missing`, `wrong-type`, `not-allowed`, `out-of-range`, `length`, `pattern`,
    /// `format`, `unknown` or `other`.
    kind: &'static str,
    /// What the schema expects, in words.
    expected: String,
    /// What the call sent there (`None` when nothing was sent).
    got: Option<Py<PyAny>>,
    /// The message, as the model reads it.
    message: String,
}

impl ArgumentError {
    fn new(py: Python<'_>, error: &RustArgumentError) -> PyResult<ArgumentError> {
        let got = match &error.got {
            Some(got) => Some(to_python(py, got)?.unbind()),
            None => None,
        };
        Ok(ArgumentError {
            pointer: error.pointer.clone(),
            kind: error.kind.as_str(),
            expected: error.expected.clone(),
            got,
            message: error.message.clone(),
        })
    }
}

#[pymethods]
impl ArgumentError {
    fn __repr__(&self) -> String {
        format!(
            "ArgumentError(pointer={:?}, kind={:?}, message={:?})",
            self.pointer, self.kind, self.message
        )
    }

    fn __str__(&self) -> String {
        let pointer = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        format!("{pointer}: {}: {}", self.kind, self.message)
    }
}
