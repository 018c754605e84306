//! Python values to JSON values and back, converted directly (no JSON text in between):
//! dicts with string keys, lists, tuples, strings, integers, floats, booleans and `None`, and
//! pydantic models through their own `model_dump`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Why a Python value is not JSON: where (a JSON pointer into the value) and what.
struct NotJson {
    /// The reference tokens, innermost first; reversed once, when the message is built.
    tokens: Vec<String>,
    message: String,
}

impl NotJson {
    fn new(message: String) -> NotJson {
        NotJson {
            tokens: Vec::new(),
            message,
        }
    }

    fn at(mut self, token: String) -> NotJson {
        self.tokens.push(token);
        self
    }

    fn into_err(self, what: &str) -> PyErr {
        let pointer: String = self
            .tokens
            .iter()
            .rev()
            .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
            .collect();
        let pointer = if pointer.is_empty() { "/" } else { &pointer };
        PyTypeError::new_err(format!("{what} at {pointer}: {}", self.message))
    }
}

/// Converts a Python value to JSON; `what` names the value in the error ("the call", "the
/// tools"), which also gives the JSON pointer of the first value that is not JSON.
pub fn to_json(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    convert(value, 0).map_err(|e| e.into_err(what))
}

/// Nesting deeper than this is refused rather than risking the stack; no tool or call comes
/// near it.
const MAX_DEPTH: usize = 512;

fn convert(value: &Bound<'_, PyAny>, depth: usize) -> Result<Value, NotJson> {
    if depth > MAX_DEPTH {
        return Err(NotJson::new(format!(
            "nested more than {MAX_DEPTH} levels deep"
        )));
    }
    // The common types first, by exact type: a check of one pointer each.
    if let Ok(s) = value.cast_exact::<PyString>() {
        return string(s).map(Value::String);
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::with_capacity(dict.len());
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(NotJson::new(format!(
                    "a key is {}, not a string (JSON object keys are strings)",
                    type_name(&key)
                )));
            };
            let key = string(key)?;
            let item = convert(&item, depth + 1).map_err(|e| e.at(key.clone()))?;
            map.insert(key, item);
        }
        return Ok(Value::Object(map));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(int) = value.cast::<PyInt>() {
        if let Ok(i) = int.extract::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = int.extract::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        return Err(NotJson::new(
            "an integer out of the 64-bit range JSON numbers are read in".to_owned(),
        ));
    }
    if let Ok(float) = value.cast::<PyFloat>() {
        let f = float.value();
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| NotJson::new(format!("{f} is not a JSON number")));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return sequence(list.iter(), list.len(), depth);
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return sequence(tuple.iter(), tuple.len(), depth);
    }
    if let Ok(s) = value.cast::<PyString>() {
        return string(s).map(Value::String);
    }
    if let Some(dumped) = model_dump(value)? {
        return convert(&dumped, depth + 1);
    }
    Err(NotJson::new(format!(
        "{} is not a JSON value (give dicts, lists, strings, numbers, booleans, None, or pydantic models)",
        type_name(value)
    )))
}

fn sequence<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    depth: usize,
) -> Result<Value, NotJson> {
    let mut out = Vec::with_capacity(len);
    for (i, item) in items.enumerate() {
        out.push(convert(&item, depth + 1).map_err(|e| e.at(i.to_string()))?);
    }
    Ok(Value::Array(out))
}

fn string(s: &Bound<'_, PyString>) -> Result<String, NotJson> {
    s.to_str()
        .map(str::to_owned)
        .map_err(|e| NotJson::new(format!("a string that is not valid Unicode: {e}")))
}

/// A pydantic model instance dumped as JSON would write it (`mode="json"`, field aliases such
/// as MCP's `inputSchema`, unset optional fields left out); `None` for anything else.
fn model_dump<'py>(value: &Bound<'py, PyAny>) -> Result<Option<Bound<'py, PyAny>>, NotJson> {
    if value.is_instance_of::<pyo3::types::PyType>()
        || !value.hasattr("model_dump").unwrap_or(false)
    {
        return Ok(None);
    }
    let py = value.py();
    let kwargs = PyDict::new(py);
    let set = |key: &str, item: Bound<'py, PyAny>| {
        kwargs
            .set_item(key, item)
            .map_err(|e| NotJson::new(e.to_string()))
    };
    set("mode", PyString::new(py, "json").into_any())?;
    set("by_alias", PyBool::new(py, true).to_owned().into_any())?;
    set("exclude_none", PyBool::new(py, true).to_owned().into_any())?;
    value
        .call_method("model_dump", (), Some(&kwargs))
        .map(Some)
        .map_err(|e| NotJson::new(format!("{}.model_dump() failed: {e}", type_name(value))))
}

/// The Python type's name, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "a value".to_owned(), |n| format!("{n}"))
}

/// Converts a JSON value to Python: objects to dicts (in their order), arrays to lists.
pub fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Converts anything serde can serialize (the library's reports and results) to Python,
/// through its JSON form.
pub fn serialized<'py, T: serde::Serialize>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    to_python(py, &value)
}
