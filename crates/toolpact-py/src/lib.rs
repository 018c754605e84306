//! The `toolpact` Python package's extension module: the command line run in-process, and the
//! library (export, import, validate, check, lock, diff, provider requests and responses, the
//! tool-poisoning scan) on Python values.
//!
//! Every function calls the Rust library; nothing here re-implements it. Python values cross
//! over through `value` (dicts and lists converted directly to JSON values and back), tool
//! definitions through `tools`, errors as the exceptions of `errors` with the command's
//! messages.

mod contract;
mod errors;
mod exchange;
mod lint;
mod tools;
mod value;

use pyo3::prelude::*;

// Validating a call converts it to JSON values, allocating a few small strings and maps each
// time; mimalloc does that markedly faster than the system allocator, as in the binary
// (docs/benchmarks.md). It serves this library's allocations only; Python keeps its own.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Runs the `toolpact` command line on `args` (the first is the program's name, as in
/// `sys.argv`) in this process and returns its exit code: 0 clean, 1 findings, 2 could not run.
/// Output goes to the process's standard output and error, as the command writes it.
#[pyfunction]
fn run(py: Python<'_>, args: Vec<String>) -> u8 {
    // The command may serve for hours or wait on a child process: other Python threads run
    // meanwhile.
    py.detach(|| toolpact_cli::run(args))
}

/// The extension module, `toolpact._toolpact`; the package re-exports what it defines.
#[pymodule]
#[pyo3(name = "_toolpact")]
fn toolpact_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(contract::export, m)?)?;
    m.add_function(wrap_pyfunction!(contract::import_tools, m)?)?;
    m.add_function(wrap_pyfunction!(contract::lock, m)?)?;
    m.add_function(wrap_pyfunction!(contract::lock_text, m)?)?;
    m.add_function(wrap_pyfunction!(contract::diff, m)?)?;
    m.add_function(wrap_pyfunction!(lint::check, m)?)?;
    m.add_function(wrap_pyfunction!(lint::scan_text, m)?)?;
    m.add_function(wrap_pyfunction!(lint::scan_value, m)?)?;
    m.add_function(wrap_pyfunction!(exchange::build_request, m)?)?;
    m.add_function(wrap_pyfunction!(exchange::read_response, m)?)?;
    m.add_class::<tools::Tools>()?;
    m.add_class::<tools::Validation>()?;
    m.add_class::<tools::ArgumentError>()?;
    m.add_class::<lint::Report>()?;
    m.add("ToolpactError", py.get_type::<errors::ToolpactError>())?;
    m.add("CatalogError", py.get_type::<errors::CatalogError>())?;
    m.add("CallError", py.get_type::<errors::CallError>())?;
    m.add("SettingsError", py.get_type::<errors::SettingsError>())?;
    m.add("LockError", py.get_type::<errors::LockError>())?;
    m.add("RequestError", py.get_type::<errors::RequestError>())?;
    m.add("ResponseError", py.get_type::<errors::ResponseError>())?;
    Ok(())
}
