"""toolpact: LLM tool contracts from Python.

Define each tool once; export it to MCP, OpenAI, Anthropic and Gemini with a report of what
each provider cannot express; validate the calls models make, in any provider's shape, with
errors a model can act on; lint definitions; pin them in a lock file and diff versions; build
provider requests and read their responses; scan any text or JSON value for tool poisoning.

Every function takes tools as Python values (a list of tool dicts, or any document
``toolpact convert`` reads), JSON text, a path, pydantic models (a model class is a tool whose
input schema is the model's JSON Schema; a model instance, such as ``mcp.types.Tool``, is read
through ``model_dump``) or a compiled :class:`Tools`. Errors are raised as
:class:`ToolpactError` subclasses carrying the command's messages.

The ``toolpact`` command installed with this package is the same command line, run in-process.
"""

from __future__ import annotations

from typing import Any

from toolpact._toolpact import (
    ArgumentError,
    CallError,
    CatalogError,
    LockError,
    Report,
    RequestError,
    ResponseError,
    SettingsError,
    Tools,
    ToolpactError,
    Validation,
    __version__,
    build_request,
    check,
    diff,
    export,
    import_tools,
    lock,
    lock_text,
    read_response,
    run,
    scan_text,
    scan_value,
)

__all__ = [
    "ArgumentError",
    "CallError",
    "CatalogError",
    "LockError",
    "Report",
    "RequestError",
    "ResponseError",
    "SettingsError",
    "Tools",
    "ToolpactError",
    "Validation",
    "__version__",
    "build_request",
    "check",
    "diff",
    "export",
    "import_tools",
    "lock",
    "lock_text",
    "read_response",
    "run",
    "scan_text",
    "scan_value",
    "validate",
]


def validate(
    tools: Any,
    call: Any,
    *,
    lenient: bool = False,
    target: str | None = None,
    strict: bool = False,
) -> Validation:
    """Checks one tool call, in any provider's shape, against ``tools``.

    The same check as ``toolpact validate``: the call may be an OpenAI Responses
    ``function_call`` item, a Chat ``tool_calls`` entry, an Anthropic ``tool_use`` block, a
    Gemini ``functionCall`` part or MCP ``tools/call`` params. The result says whether the call
    is valid, lists typed errors (``pointer``, ``kind``, ``expected``, ``got``, ``message``)
    and carries the message a model can act on.

    This compiles the tools' schemas on every call: to validate many calls, make a
    :class:`Tools` once and call its ``validate``.
    """
    return Tools(tools, target=target, strict=strict).validate(call, lenient=lenient)
