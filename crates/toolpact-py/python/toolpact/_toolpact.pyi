"""Type stubs of the extension module; :mod:`toolpact` re-exports everything here."""

from __future__ import annotations

import os
from typing import Any, Literal, Sequence, TypedDict, final


__version__: str

JSON = Any
"""A JSON value as Python holds it: dict, list, str, int, float, bool or None."""

ToolsLike = Any
"""Tools in any form the functions take: a list of tool dicts (or pydantic model classes, or
``mcp.types.Tool`` objects), a document in any provider's format, JSON text (``str`` or
``bytes``), a path (``os.PathLike``), or a :class:`Tools`."""

Target = Literal["mcp", "openai-responses", "openai-chat", "anthropic", "gemini", "gemini-json"]
ModelApi = Literal["openai-responses", "openai-chat", "anthropic", "gemini"]
SeverityName = Literal["error", "warning", "info"]

class Origin(TypedDict):
    file: str
    pointer: str
    line: int
    column: int

class Loss(TypedDict):
    tool: str
    index: int
    pointer: str
    kind: str
    message: str

class LeftOut(TypedDict):
    tool: str
    index: int
    pointer: str
    reason: str

class Exported(TypedDict):
    target: str
    payload: JSON
    losses: list[Loss]
    left_out: list[LeftOut]
    names: dict[str, str]

class ImportedTool(TypedDict):
    tool: dict[str, JSON]
    origin: Origin
    format: str

class Finding(TypedDict):
    code: str
    name: str
    category: str
    severity: SeverityName
    tool: str | None
    tool_index: int | None
    pointer: str
    origin: Origin | None
    message: str
    help: str

class Summary(TypedDict):
    tools: int
    errors: int
    warnings: int
    infos: int

class Detection(TypedDict):
    technique: str
    code: str
    what: str
    pointer: str
    quote: str
    encoding: str | None
    obfuscated: bool

class BuiltRequest(TypedDict):
    body: dict[str, JSON]
    losses: list[Loss]
    left_out: list[LeftOut]
    conversation_losses: list[dict[str, JSON]]
    names: dict[str, str]

class ReplyCall(TypedDict):
    format: str
    id: str | None
    name: str
    arguments: JSON | None
    error: str | None

class Reply(TypedDict):
    message: dict[str, JSON]
    calls: list[ReplyCall]
    stop: dict[str, JSON]
    skipped: list[dict[str, JSON]]

class ToolpactError(ValueError):
    """Something toolpact could not do; the message is the one the command prints."""

class CatalogError(ToolpactError):
    """The tool definitions could not be read (not JSON, no tools, two tools with one name)."""

class CallError(ToolpactError):
    """The value is not a tool call in any provider's shape."""

class SettingsError(ToolpactError):
    """The linter's configuration or a rule selection is not valid."""

class LockError(ToolpactError):
    """A lock file could not be read or made."""

class RequestError(ToolpactError):
    """A provider request could not be built from the tools and the conversation."""

class ResponseError(ToolpactError):
    """A provider response could not be read."""

@final
class ArgumentError:
    """One argument that breaks the schema."""

    @property
    def pointer(self) -> str:
        """JSON pointer to the argument (``""`` for the arguments object itself)."""
    @property
    def kind(self) -> str:
        """``missing``, ``wrong-type``, ``not-allowed``, ``out-of-range``, ``length``,
        ``pattern``, ``format``, ``unknown`` or ``other``."""
    @property
    def expected(self) -> str:
        """What the schema expects, in words."""
    @property
    def got(self) -> JSON | None:
        """What the call sent there (``None`` when nothing was sent)."""
    @property
    def message(self) -> str:
        """The message, as the model reads it."""

@final
class Validation:
    """The result of checking one call."""

    @property
    def valid(self) -> bool:
        """Whether the call names a known tool and its arguments are valid."""
    @property
    def outcome(self) -> Literal["ok", "unknown-tool", "malformed-arguments", "invalid-arguments"]:
        """How the check ended."""
    @property
    def tool(self) -> str | None:
        """The tool's own name, when the call named a known tool."""
    @property
    def name(self) -> str:
        """The name the call used."""
    @property
    def call_id(self) -> str | None:
        """The call's id, when the provider gave one."""
    @property
    def format(self) -> str:
        """The provider shape the call came in."""
    @property
    def errors(self) -> list[ArgumentError]:
        """The typed errors of the arguments."""
    @property
    def suggestions(self) -> list[str]:
        """The closest tool names, for an unknown tool."""
    @property
    def message(self) -> str | None:
        """The text for the model when the call is not valid."""
    @property
    def arguments(self) -> JSON | None:
        """The arguments as validated: after reading back and lenient repairs, or as sent."""
    @property
    def repairs(self) -> list[dict[str, JSON]]:
        """The repairs lenient mode made (``pointer``, ``from``, ``to``)."""
    @property
    def read_back(self) -> list[dict[str, JSON]]:
        """The changes made reading the call back through the export it answers."""
    def to_dict(self) -> dict[str, JSON]:
        """The report ``toolpact validate --format json`` writes for this call."""
    def __bool__(self) -> bool: ...

@final
class Tools:
    """Tool definitions whose schemas are compiled once, for validating many calls."""

    def __new__(cls, tools: ToolsLike, *, target: str | None = None, strict: bool = False) -> Tools: ...
    def validate(self, call: JSON, *, lenient: bool = False) -> Validation:
        """Checks one tool call, in any provider's shape, as ``toolpact validate`` does."""
    def names(self) -> list[str]:
        """The tool names, in the order they were read."""
    def to_list(self) -> list[dict[str, JSON]]:
        """The tools as MCP tool dicts."""
    def __len__(self) -> int: ...
    def __contains__(self, name: str, /) -> bool: ...

@final
class Report:
    """The findings of a check, with their summary and the description quality score."""

    @property
    def findings(self) -> list[Finding]:
        """The findings, most serious first."""
    @property
    def summary(self) -> Summary:
        """How many tools were checked, and how many errors, warnings and infos were found."""
    @property
    def quality(self) -> dict[str, JSON]:
        """The description quality: the overall score (0 to 5) and each tool's."""
    @property
    def max_severity(self) -> SeverityName | None:
        """The most serious severity found."""
    def fails_at(self, severity: str) -> bool:
        """Whether some finding is at ``severity`` or above."""
    def render(self, format: Literal["text", "json", "sarif", "github"] = "text", *, color: bool = False) -> str:
        """The report as ``toolpact check --format FORMAT`` prints it."""
    def __len__(self) -> int: ...

def run(args: Sequence[str]) -> int:
    """Runs the ``toolpact`` command line in this process and returns its exit code."""

def export(tools: ToolsLike, target: Target, *, strict: bool = False) -> Exported:
    """Lowers tools to one provider's format, as ``toolpact convert --to TARGET`` does."""

def import_tools(data: ToolsLike, *, format: Target | None = None) -> list[ImportedTool]:
    """Reads tool definitions in any format toolpact reads, with their origins."""

def lock(tools: ToolsLike) -> dict[str, JSON]:
    """The lock document ``toolpact lock`` writes, as a dict."""

def lock_text(tools: ToolsLike) -> str:
    """The lock file's text exactly as ``toolpact lock`` writes it."""

def diff(old: ToolsLike, new: ToolsLike) -> list[dict[str, JSON]]:
    """Every change between two versions of tools (or lock documents), breaking ones first."""

def check(
    tools: ToolsLike,
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    config: str | os.PathLike[str] | dict[str, JSON] | None = None,
    targets: Sequence[str] | None = None,
    strict: bool | None = None,
    locked: str | os.PathLike[str] | dict[str, JSON] | None = None,
) -> Report:
    """Lints tool definitions, as ``toolpact check`` does."""

def scan_text(text: str) -> list[Detection]:
    """Looks for tool poisoning in a text."""

def scan_value(value: JSON) -> list[Detection]:
    """Looks for tool poisoning in every string of a JSON value."""

def build_request(
    tools: ToolsLike,
    target: ModelApi,
    messages: JSON,
    *,
    system: str | None = None,
    model: str | None = None,
    max_tokens: int | None = None,
    strict: bool = False,
    tool_choice: str = "auto",
    parallel_tool_calls: bool | None = None,
) -> BuiltRequest:
    """Builds the whole request body one provider's API expects, as ``toolpact request`` does."""

def read_response(target: ModelApi, body: JSON, *, tools: ToolsLike | None = None, strict: bool = False) -> Reply:
    """Reads one provider response body back: the message, the calls, why the model stopped."""
