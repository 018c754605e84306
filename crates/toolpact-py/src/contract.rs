//! The contract functions: `export` to a provider, `import_tools` from any format, `lock`
//! and `diff`.

use crate::errors::{LockError, ToolpactError};
use crate::tools::{Input, PYTHON_SOURCE, parse_target, read_tools};
use crate::value::{serialized, to_json, to_python};
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use serde_json::Value;
use toolpact::is_lock_document;
use toolpact::{ExportOptions, LockFile, Tool, diff as diff_tools, export as export_tools};

/// Lowers tools to one provider's format, as `toolpact convert --to TARGET` does.
///
/// Returns a dict: `target`, `payload` (what the provider receives), `losses` (what the
/// target could not express, each with `tool`, `index`, `pointer`, `kind` and `message`),
/// `left_out` (tools the target cannot take at all) and `names` (exported name → the tool's
/// own name, for every name the export rewrote).
#[pyfunction]
#[pyo3(signature = (tools, target, *, strict = false))]
pub fn export<'py>(
    py: Python<'py>,
    tools: &Bound<'py, PyAny>,
    target: &str,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let target = parse_target(target)?;
    let input = read_tools(tools, None)?;
    let exported = export_tools(input.catalog.tools(), target, ExportOptions { strict })
        .map_err(|e| ToolpactError::new_err(e.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("target", exported.target.as_str())?;
    out.set_item("payload", to_python(py, &exported.payload)?)?;
    out.set_item("losses", serialized(py, &exported.report.losses)?)?;
    out.set_item("left_out", serialized(py, &exported.report.left_out)?)?;
    let names = PyDict::new(py);
    for (exported, original) in exported.names.renamed() {
        names.set_item(exported, original)?;
    }
    out.set_item("names", names)?;
    Ok(out)
}

/// Reads tool definitions in any format toolpact reads (MCP, OpenAI Chat and Responses,
/// Anthropic, Gemini, a `tools/list` result…), detected item by item unless `format` names
/// one.
///
/// Returns one dict per tool: `tool` (the neutral MCP form), `origin` (`file`, `pointer`,
/// `line`, `column`) and `format` (the format it was read in). What the import did not keep
/// (built-in tools, provider-only fields) is reported as a `UserWarning` each.
#[pyfunction]
#[pyo3(signature = (data, *, format = None))]
pub fn import_tools<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    format: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let format = format.map(parse_target).transpose()?;
    let input = read_tools(data, format)?;
    for note in &input.catalog.notes {
        let tool = note
            .tool
            .as_deref()
            .map_or_else(String::new, |t| format!("{t} "));
        let message = format!(
            "{}: {tool}{}: note: {}",
            note.origin, note.origin.pointer, note.message
        );
        let message = std::ffi::CString::new(message.replace('\0', " "))
            .map_err(|e| ToolpactError::new_err(e.to_string()))?;
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)?;
    }
    let out = PyList::empty(py);
    for entry in &input.catalog.entries {
        let item = PyDict::new(py);
        item.set_item("tool", serialized(py, &entry.tool)?)?;
        item.set_item("origin", serialized(py, &entry.origin)?)?;
        item.set_item("format", entry.format.as_str())?;
        out.append(item)?;
    }
    Ok(out)
}

/// Pins every tool's whole contract (name, title, descriptions, schemas, annotations, `_meta`,
/// icons) with its SHA-256, as `toolpact lock` writes it; returns the lock document as a
/// dict (`json.dumps` of it, or `lock_text`, is the file).
#[pyfunction]
pub fn lock<'py>(py: Python<'py>, tools: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let tools = contracts(tools)?;
    let lock = LockFile::new(&tools).map_err(|e| LockError::new_err(e.to_string()))?;
    to_python(py, &lock.to_value())
}

/// The lock file's text exactly as `toolpact lock` writes it (canonical, stable across runs).
#[pyfunction]
pub fn lock_text(tools: &Bound<'_, PyAny>) -> PyResult<String> {
    let tools = contracts(tools)?;
    let lock = LockFile::new(&tools).map_err(|e| LockError::new_err(e.to_string()))?;
    Ok(lock.to_json_string())
}

/// Every change between two versions of tools, breaking ones first, as `toolpact diff`
/// reports them. Each side is tools (any form the other functions take) or a lock document
/// (a dict, its text, or the path of a lock file). Returns one dict per change, with its
/// `class` (`breaking`, `behaviour`, `description`…), `kind`, `tool`, `pointer` and `message`.
#[pyfunction]
pub fn diff<'py>(
    py: Python<'py>,
    old: &Bound<'py, PyAny>,
    new: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let old = contracts(old)?;
    let new = contracts(new)?;
    serialized(py, &diff_tools(&old, &new).changes)
}

/// The tools of a lock document, or of tool definitions.
fn contracts(source: &Bound<'_, PyAny>) -> PyResult<Vec<Tool>> {
    if let Some((text, file)) = text_of(source)? {
        if let Ok(value) = serde_json::from_str::<Value>(text.trim_start_matches('\u{feff}'))
            && is_lock_document(&value)
        {
            return from_lock(&text, &file);
        }
    } else if source.cast::<PyDict>().is_ok() {
        let value = to_json(source, "the tools")?;
        if is_lock_document(&value) {
            let text =
                serde_json::to_string(&value).map_err(|e| LockError::new_err(e.to_string()))?;
            return from_lock(&text, PYTHON_SOURCE);
        }
    }
    let Input { catalog, .. } = read_tools(source, None)?;
    Ok(catalog
        .entries
        .into_iter()
        .map(|entry| entry.tool)
        .collect())
}

fn from_lock(text: &str, file: &str) -> PyResult<Vec<Tool>> {
    let lock =
        LockFile::from_str_named(text, file).map_err(|e| LockError::new_err(e.to_string()))?;
    Ok(lock.tools().cloned().collect())
}

/// The text and name of a document given as a path, `str` or `bytes`; `None` for values.
fn text_of(source: &Bound<'_, PyAny>) -> PyResult<Option<(String, String)>> {
    if source.hasattr("__fspath__")? {
        let path: std::path::PathBuf = source.extract()?;
        let file = path.display().to_string();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ToolpactError::new_err(format!("cannot read {file}: {e}")))?;
        return Ok(Some((text, file)));
    }
    if let Ok(text) = source.cast::<PyString>() {
        return Ok(Some((text.to_str()?.to_owned(), PYTHON_SOURCE.to_owned())));
    }
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let text = String::from_utf8_lossy(bytes.as_bytes()).into_owned();
        return Ok(Some((text, PYTHON_SOURCE.to_owned())));
    }
    Ok(None)
}
