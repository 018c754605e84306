"""pytest helpers: assert that tools have no lint finding at or above a severity.

>>> from toolpact.testing import assert_no_findings
>>> assert_no_findings(my_tools)                      # a list of tool dicts, a file...
>>> assert_no_findings(mcp_server, fail_on="warning") # an MCP server object's tools

The findings are printed as ``toolpact check`` prints them, and the assertion's message is
the same report, so a failing test shows each finding with its file, line and pointer.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any, Iterable

from toolpact._toolpact import Report, check

__all__ = ["assert_no_findings", "server_tools"]


def assert_no_findings(
    tools: Any,
    *,
    fail_on: str = "error",
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    config: Any = None,
    targets: Iterable[str] | None = None,
    strict: bool | None = None,
) -> Report:
    """Lints ``tools`` and fails when a finding is at ``fail_on`` or above.

    ``tools`` is anything :func:`toolpact.check` takes, or an MCP server object: the official
    SDK's ``MCPServer`` (``FastMCP`` before mcp 2), a standalone FastMCP server, or any object
    with a ``list_tools()`` or ``get_tools()`` method (awaited when it is a coroutine), whose
    tools are read through that public API. ``fail_on`` is ``"error"`` (as ``toolpact check``),
    ``"warning"`` or ``"info"``; the other arguments are :func:`toolpact.check`'s.

    Prints the report as the command does and returns it when nothing reaches ``fail_on``;
    raises ``AssertionError`` with the report otherwise.
    """
    if fail_on not in ("error", "warning", "info"):
        raise ValueError(f"no severity is named {fail_on!r}: error, warning or info")
    if _is_server(tools):
        tools = server_tools(tools)
    report = check(
        tools,
        select=list(select) if select is not None else None,
        ignore=list(ignore) if ignore is not None else None,
        config=config,
        targets=list(targets) if targets is not None else None,
        strict=strict,
    )
    text = report.render("text")
    print(text, end="")
    if report.fails_at(fail_on):
        raise AssertionError(f"toolpact check found findings at {fail_on} or above:\n{text}")
    return report


def server_tools(server: Any) -> list[Any]:
    """The tools an MCP server object lists, read through its public API.

    ``list_tools()`` (the official SDK's ``MCPServer``/``FastMCP``, FastMCP 3) or
    ``get_tools()`` (FastMCP 2), awaited when it returns a coroutine (in a thread of its own
    when an event loop already runs in this one). A FastMCP tool is turned into its MCP form
    with ``to_mcp_tool()``; an ``mcp.types.Tool`` is taken as it is.
    """
    for name in ("list_tools", "get_tools"):
        method = getattr(server, name, None)
        if callable(method):
            listed = _resolve(method())
            break
    else:
        raise TypeError(f"{type(server).__name__} has no list_tools() or get_tools() method")
    if isinstance(listed, dict):
        listed = list(listed.values())
    elif hasattr(listed, "tools"):
        listed = listed.tools
    return [tool.to_mcp_tool() if hasattr(tool, "to_mcp_tool") else tool for tool in listed]


def _is_server(value: Any) -> bool:
    if isinstance(value, (list, tuple, dict, str, bytes)):
        return False
    return any(callable(getattr(value, name, None)) for name in ("list_tools", "get_tools"))


def _resolve(value: Any) -> Any:
    if not inspect.isawaitable(value):
        return value
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_awaited(value))
    # A loop already runs in this thread (an async test): run the coroutine in another one.
    result: list[Any] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(_awaited(value)))
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            error.append(e)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]


async def _awaited(value: Any) -> Any:
    return await value
