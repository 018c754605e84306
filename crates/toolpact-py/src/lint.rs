//! The linter from Python: `check` and its `Report`, and the tool-poisoning scan of any text
//! or JSON value (`scan_text`, `scan_value`).

use crate::errors::{LockError, SettingsError, ToolpactError};
use crate::tools::read_tools;
use crate::value::{serialized, to_json};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use toolpact::LockFile;
use toolpact_lint::{Detection, OutputFormat, Settings, Severity, Sources, check_locked, render};

/// The findings of a check, with their summary and the description quality score.
#[pyclass(module = "toolpact", frozen)]
pub struct Report {
    report: toolpact_lint::Report,
    sources: Sources,
}

#[pymethods]
impl Report {
    /// The findings, most serious first: dicts with `code`, `name`, `category`, `severity`,
    /// `tool`, `tool_index`, `pointer`, `origin`, `message` and `help`.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, &self.report.findings)
    }

    /// How many tools were checked, and how many errors, warnings and infos were found.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, &self.report.summary)
    }

    /// The description quality: the overall score (0 to 5) and each tool's.
    #[getter]
    fn quality<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, &self.report.quality)
    }

    /// The most serious severity found (`error`, `warning`, `info`), or `None`.
    #[getter]
    fn max_severity(&self) -> Option<&'static str> {
        self.report.max_severity().map(Severity::as_str)
    }

    /// Whether some finding is at `severity` (`error`, `warning` or `info`) or above.
    fn fails_at(&self, severity: &str) -> PyResult<bool> {
        let threshold = parse_severity(severity)?;
        Ok(self
            .report
            .max_severity()
            .is_some_and(|worst| worst >= threshold))
    }

    /// The report as `toolpact check --format FORMAT` prints it: `text` (the default),
    /// `json`, `sarif` or `github`.
    #[pyo3(signature = (format = "text", *, color = false))]
    fn render(&self, format: &str, color: bool) -> PyResult<String> {
        let format = match format {
            "text" => OutputFormat::Text,
            "json" => OutputFormat::Json,
            "sarif" => OutputFormat::Sarif,
            "github" => OutputFormat::Github,
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "no report format is named {other:?}: text, json, sarif or github"
                )));
            }
        };
        Ok(render(&self.report, format, &self.sources, color))
    }

    fn __len__(&self) -> usize {
        self.report.findings.len()
    }

    fn __str__(&self) -> String {
        render(&self.report, OutputFormat::Text, &self.sources, false)
    }

    fn __repr__(&self) -> String {
        let s = &self.report.summary;
        format!(
            "Report(tools={}, errors={}, warnings={}, infos={})",
            s.tools, s.errors, s.warnings, s.infos
        )
    }
}

/// Reads a severity name.
pub fn parse_severity(name: &str) -> PyResult<Severity> {
    match name {
        "error" => Ok(Severity::Error),
        "warning" => Ok(Severity::Warning),
        "info" => Ok(Severity::Info),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "no severity is named {other:?}: error, warning or info"
        ))),
    }
}

/// Lints tool definitions, as `toolpact check` does: what models misuse, what providers and
/// clients reject, what costs too much, and what looks like an attack.
///
/// `select` and `ignore` take rule codes, code prefixes (`TP1`), names or categories, as
/// `--select` and `--ignore` do; `config` is a `toolpact.toml` (a path, or its content as a
/// dict), which is read only when given; `targets` limits the targets checked; `strict` adds
/// (or, `False`, removes) the strict variants; `locked` compares every tool with a lock
/// document (a dict, or the path of a lock file) and reports each change (TP590).
#[pyfunction]
#[pyo3(signature = (tools, *, select = None, ignore = None, config = None, targets = None, strict = None, locked = None))]
#[allow(clippy::too_many_arguments)]
pub fn check(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    config: Option<&Bound<'_, PyAny>>,
    targets: Option<Vec<String>>,
    strict: Option<bool>,
    locked: Option<&Bound<'_, PyAny>>,
) -> PyResult<Report> {
    let mut settings = match config {
        Some(config) => read_settings(config)?,
        None => Settings::default(),
    };
    let settings_error = |e: toolpact_lint::SettingsError| SettingsError::new_err(e.to_string());
    if let Some(select) = select {
        settings.select_overriding(select).map_err(settings_error)?;
    }
    if let Some(ignore) = ignore {
        settings.ignore(ignore).map_err(settings_error)?;
    }
    if let Some(targets) = targets {
        settings.set_targets(&targets).map_err(settings_error)?;
    }
    if let Some(strict) = strict {
        settings.strict = strict;
    }
    let lock = locked.map(read_lock).transpose()?;
    let input = read_tools(tools, None)?;
    let catalog = &input.catalog;
    let settings = &settings;
    // A large catalog takes seconds; other Python threads run meanwhile.
    let mut report = py.detach(|| toolpact_lint::check(catalog, settings));
    if let Some((lock, file)) = &lock {
        report.extend(check_locked(catalog, lock, file));
    }
    Ok(Report {
        report,
        sources: input.sources,
    })
}

/// Settings from a `toolpact.toml` path, or from its content as a dict.
fn read_settings(config: &Bound<'_, PyAny>) -> PyResult<Settings> {
    let (text, file) = if config.cast::<PyDict>().is_ok() {
        let value = to_json(config, "the configuration")?;
        let text = toml::to_string(&value)
            .map_err(|e| SettingsError::new_err(format!("<config>: {e}")))?;
        (text, "<config>".to_owned())
    } else {
        let path: std::path::PathBuf = config.extract()?;
        let file = path.display().to_string();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ToolpactError::new_err(format!("cannot read {file}: {e}")))?;
        (text, file)
    };
    Settings::from_toml(&text, &file).map_err(|e| SettingsError::new_err(e.to_string()))
}

/// A lock document (a dict, or a path) and the name findings give it.
fn read_lock(locked: &Bound<'_, PyAny>) -> PyResult<(LockFile, String)> {
    let (text, file) = if locked.cast::<PyDict>().is_ok() {
        let value = to_json(locked, "the lock")?;
        let text = serde_json::to_string(&value).map_err(|e| LockError::new_err(e.to_string()))?;
        (text, "toolpact.lock".to_owned())
    } else {
        let path: std::path::PathBuf = locked.extract()?;
        let file = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            ToolpactError::new_err(format!("{file}: cannot read the lock file: {e}"))
        })?;
        (text, file)
    };
    let lock =
        LockFile::from_str_named(&text, &file).map_err(|e| LockError::new_err(e.to_string()))?;
    Ok((lock, file))
}

/// Looks for tool poisoning in a text (a tool result, a resource, a prompt): instructions
/// that push the model to pick a tool, hide a step, claim authority, steer other tools'
/// calls, ask for data the tool has no need of, or hide themselves (encoded, invisible
/// characters, look-alike letters). Returns one dict per passage: `technique`, `code` (the
/// rule reporting it in tool definitions), `what`, `pointer` (`""` for a text), `quote`,
/// `encoding` and `obfuscated`.
#[pyfunction]
pub fn scan_text<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyList>> {
    detections(py, &toolpact_lint::scan_text(text))
}

/// Looks for tool poisoning in every string of a JSON value (a tool result's `content` and
/// `structuredContent`, keys included), as `scan_text` does; each `pointer` is the string's
/// JSON pointer into the value.
#[pyfunction]
pub fn scan_value<'py>(py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let value = if let Ok(text) = value.cast::<PyString>() {
        serde_json::Value::String(text.to_str()?.to_owned())
    } else {
        to_json(value, "the value")?
    };
    detections(py, &toolpact_lint::scan_value(&value))
}

fn detections<'py>(py: Python<'py>, found: &[Detection]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for detection in found {
        let item = serialized(py, detection)?;
        let item = item.cast::<PyDict>()?;
        item.set_item("code", detection.technique.code())?;
        item.set_item("what", detection.technique.what())?;
        out.append(item)?;
    }
    Ok(out)
}
