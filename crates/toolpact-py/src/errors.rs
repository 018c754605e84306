//! The exceptions the package raises: one base class, `ToolpactError` (a `ValueError`), and
//! one subclass per kind of input that could not be read. Their messages are the command's.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    toolpact,
    ToolpactError,
    PyValueError,
    "Something toolpact could not do; the message is the one the command prints."
);
create_exception!(
    toolpact,
    CatalogError,
    ToolpactError,
    "The tool definitions could not be read (not JSON, no tools, two tools with one name)."
);
create_exception!(
    toolpact,
    CallError,
    ToolpactError,
    "The value is not a tool call in any provider's shape."
);
create_exception!(
    toolpact,
    SettingsError,
    ToolpactError,
    "The linter's configuration or a rule selection is not valid."
);
create_exception!(
    toolpact,
    LockError,
    ToolpactError,
    "A lock file could not be read or made."
);
create_exception!(
    toolpact,
    RequestError,
    ToolpactError,
    "A provider request could not be built from the tools and the conversation."
);
create_exception!(
    toolpact,
    ResponseError,
    ToolpactError,
    "A provider response could not be read."
);
