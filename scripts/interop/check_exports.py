#!/usr/bin/env python3
"""Feed toolpact's exports to the official provider SDK types.

For every fixture and every export target (plus the `--strict` variants), run
`toolpact convert FIXTURE --to TARGET [--strict]`, parse the JSON it prints and
check every exported tool with the provider's own Python SDK:

* mcp               `mcp.types.ListToolsResult.model_validate` (the version-free
                    model) and `mcp.types.methods.parse_server_result("tools/list",
                    VERSION, ...)`, which validates against the SDK's per-version
                    wire shape for 2025-11-25 and 2026-07-28.
* openai-responses  `TypeAdapter(openai.types.responses.FunctionToolParam)` and
                    `openai.types.responses.FunctionTool.model_validate`.
* openai-chat       `TypeAdapter(openai.types.chat.ChatCompletionFunctionToolParam)`
                    and `openai.types.shared.FunctionDefinition.model_validate`.
* anthropic         `TypeAdapter(anthropic.types.ToolParam)`, and the input schema
                    against the SDK's typed arm `InputSchemaTyped` (root `type:
                    "object"`), since `ToolParam.input_schema` also admits any dict.
* gemini, gemini-json
                    `google.genai.types.Tool.model_validate`, then the SDK's own
                    Developer API (mldev) request builder, run offline: `process_schema`
                    (which calls `_raise_for_unsupported_mldev_properties`) on every
                    `parameters`/`response` schema, and `_GenerateContentParameters_to_mldev`
                    + `_common.convert_to_dict` on a request carrying the tool, exactly
                    as `Models.generate_content` builds its body before the HTTP call.

The SDK types are lenient in places (TypedDicts accept extra keys, several models
ignore them, no SDK checks name patterns, google-genai accepts the Vertex-only
`additionalProperties`, `ref`, `defs`), so the script also cross-checks:

* every emitted key is a declared key of the SDK TypedDict/model;
* tool names against each provider's pattern;
* strict OpenAI tools: every object has `additionalProperties: false` and lists
  all its properties in `required`; root is `type: "object"` (not `anyOf`); no
  keyword the strict subset rejects (`allOf`, `not`, `if`/`then`/`else`, ...);
* strict Anthropic tools: `additionalProperties: false` on every object and none of
  the keywords the strict subset rejects;
* gemini `parameters`/`response`: only keys of the Developer API `Schema` proto
  (the SDK's `Schema` minus the Vertex-only `additionalProperties`/`ref`/`defs`),
  and a single `type` per node;
* a target that exits 0 exports as many tools as the MCP export (no silent drops).

A check is one fixture x one target variant. It fails when a tool that toolpact
printed fails validation (whether toolpact exited 0, or 1 having left out the
tools it could not represent), when toolpact exits 2 on a fixture that is not
marked invalid, or when toolpact crashes or prints something that is not the
target's payload. Exit status: 0 when every check passed, 1 otherwise, 2 on bad
usage. The last line printed is `interop: N passed, M failed`.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from pydantic import BaseModel, TypeAdapter, ValidationError

import anthropic
import anthropic.types
import anthropic.types.tool_param
import mcp.types
import mcp.types.methods
import openai
import openai.types.chat
import openai.types.responses
import openai.types.shared
import openai.types.shared_params
from google import genai
from google.genai import _common as genai_common
from google.genai import _transformers as genai_transformers
from google.genai import models as genai_models
from google.genai import types as genai_types

# --------------------------------------------------------------------------------------
# Targets
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One `toolpact convert` invocation per fixture."""

    target: str
    strict: bool = False

    @property
    def label(self) -> str:
        return f"{self.target} --strict" if self.strict else self.target

    def argv(self) -> list[str]:
        return ["--to", self.target] + (["--strict"] if self.strict else [])


VARIANTS: tuple[Variant, ...] = (
    Variant("mcp"),
    Variant("openai-responses"),
    Variant("openai-responses", strict=True),
    Variant("openai-chat"),
    Variant("openai-chat", strict=True),
    Variant("anthropic"),
    Variant("anthropic", strict=True),
    Variant("gemini"),
    Variant("gemini-json"),
)

# Name rules (docs/providers.md#tool-names-at-a-glance; MCP SEP-986 is a SHOULD, so a warning).
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
GEMINI_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
MCP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
# Gemini `parameters` property names (SDK `FunctionDeclaration.parameters` docstring): a warning.
GEMINI_PROPERTY_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

MCP_VERSIONS = ("2025-11-25", "2026-07-28")
# 2026-07-28 makes these result fields required; toolpact's payload is the `tools` body,
# so the envelope is filled in (only where absent) to check the tools against that era.
MCP_2026_ENVELOPE = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}

# Keywords the OpenAI strict subset rejects (docs/providers.md#openai-strict-mode).
OPENAI_STRICT_UNSUPPORTED = ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else")
# Keywords the Anthropic strict subset rejects (docs/providers.md#anthropic-strict-tools).
ANTHROPIC_STRICT_UNSUPPORTED = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
    "uniqueItems",
)

GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
# google-genai's `Schema` models Vertex AI's schema; these three fields exist only there
# (docs/providers.md#gemini-parameters: the Developer API answers
# `Unknown name "additionalProperties"`).
GEMINI_VERTEX_ONLY = {"additionalProperties", "additional_properties", "ref", "defs"}


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------


class Problems:
    """Collects failures (and warnings) for one tool."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []

    def error(self, msg: str) -> None:
        self.errors.append(msg)

    def warn(self, msg: str) -> None:
        self.warnings.append(msg)

    def run(self, what: str, fn: Callable[[], Any]) -> Any:
        """Run an SDK check; record any exception it raises as a failure."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return fn()
        except ValidationError as exc:
            self.error(f"{what}: {format_validation_error(exc)}")
        except Exception as exc:  # the SDKs raise ValueError, AttributeError, ...
            self.error(f"{what}: {type(exc).__name__}: {one_line(str(exc))}")
        return None


def one_line(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def format_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err.get("loc", ())) or "<root>"
        parts.append(f"{loc}: {err.get('msg')}")
    return one_line("; ".join(parts))


def typed_dict_keys(td: type) -> set[str]:
    """Declared keys of a TypedDict, inherited ones included."""
    keys = set(getattr(td, "__required_keys__", set())) | set(getattr(td, "__optional_keys__", set()))
    if not keys:
        for klass in reversed(td.__mro__):
            keys |= set(getattr(klass, "__annotations__", {}))
    return keys


def model_keys(model: type[BaseModel]) -> set[str]:
    """Wire keys a pydantic model declares: each field's alias, else its generated alias,
    else its name. Python-side names (`input_schema`, `async_`, `meta`) are not wire keys."""
    keys: set[str] = set()
    generator = model.model_config.get("alias_generator")
    for name, info in model.model_fields.items():
        if info.alias:
            keys.add(info.alias)
        elif callable(generator):
            keys.add(generator(name))
        else:
            keys.add(name)
    return keys


def check_keys(problems: Problems, where: str, obj: Any, allowed: set[str]) -> None:
    if not isinstance(obj, dict):
        return
    extra = sorted(set(obj) - allowed)
    if extra:
        problems.error(f"{where}: undeclared key(s) {extra} (declared: {sorted(allowed)})")


def check_name(problems: Problems, provider: str, name: Any, pattern: re.Pattern[str]) -> None:
    if not isinstance(name, str) or not pattern.fullmatch(name):
        problems.error(f"{provider} name {name!r} does not match {pattern.pattern}")


# --------------------------------------------------------------------------------------
# JSON Schema walking (for the strict cross-checks)
# --------------------------------------------------------------------------------------

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_SINGLE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)


def walk_schema(schema: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (JSON pointer, node) for every subschema that is an object."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in _SCHEMA_MAPS:
        sub = schema.get(key)
        if isinstance(sub, dict):
            for name, child in sub.items():
                yield from walk_schema(child, f"{path}/{key}/{name}")
    for key in _SCHEMA_LISTS:
        sub = schema.get(key)
        if isinstance(sub, list):
            for i, child in enumerate(sub):
                yield from walk_schema(child, f"{path}/{key}/{i}")
    for key in _SCHEMA_SINGLE:
        sub = schema.get(key)
        if isinstance(sub, dict):
            yield from walk_schema(sub, f"{path}/{key}")
        elif key == "items" and isinstance(sub, list):
            for i, child in enumerate(sub):
                yield from walk_schema(child, f"{path}/items/{i}")


def is_object_schema(node: dict[str, Any]) -> bool:
    t = node.get("type")
    if t == "object" or (isinstance(t, list) and "object" in t):
        return True
    return t is None and "properties" in node


def check_root_object(problems: Problems, provider: str, schema: Any) -> None:
    if not isinstance(schema, dict):
        problems.error(f"{provider}: schema is {type(schema).__name__}, expected an object schema")
    elif schema.get("type") != "object":
        problems.error(f"{provider}: schema root must be type \"object\", got type {schema.get('type')!r}")


def check_openai_strict(problems: Problems, schema: Any) -> None:
    """OpenAI strict mode (function-calling guide, Structured Outputs "Supported schemas")."""
    if not isinstance(schema, dict):
        problems.error("openai strict: parameters is not an object schema")
        return
    if schema.get("type") != "object":
        problems.error(f"openai strict: root must be type \"object\", got {schema.get('type')!r}")
    if "anyOf" in schema:
        problems.error("openai strict: root must not be anyOf")
    for path, node in walk_schema(schema):
        if is_object_schema(node):
            if node.get("additionalProperties") is not False:
                problems.error(
                    f"openai strict: {path}: object without additionalProperties: false "
                    f"(has {node.get('additionalProperties', '<absent>')!r})"
                )
            props = node.get("properties") or {}
            required = node.get("required") or []
            missing = [p for p in props if p not in required]
            if missing:
                problems.error(f"openai strict: {path}: properties not in required: {missing}")
        for key in OPENAI_STRICT_UNSUPPORTED:
            if key in node:
                problems.error(f"openai strict: {path}: unsupported keyword {key!r}")


def check_anthropic_strict(problems: Problems, schema: Any) -> None:
    """Anthropic strict tool use (structured-outputs "JSON Schema limitations")."""
    if not isinstance(schema, dict):
        problems.error("anthropic strict: input_schema is not an object schema")
        return
    for path, node in walk_schema(schema):
        if is_object_schema(node) and node.get("additionalProperties") is not False:
            problems.error(
                f"anthropic strict: {path}: object without additionalProperties: false "
                f"(has {node.get('additionalProperties', '<absent>')!r})"
            )
        for key in ANTHROPIC_STRICT_UNSUPPORTED:
            if key in node:
                problems.error(f"anthropic strict: {path}: unsupported keyword {key!r}")
        min_items = node.get("minItems")
        if min_items is not None and min_items not in (0, 1):
            problems.error(f"anthropic strict: {path}: minItems {min_items} (only 0 or 1 supported)")


def check_gemini_openapi_schema(problems: Problems, what: str, schema: Any, allowed: set[str]) -> None:
    """Developer API `Schema`: proto fields only, one `type` per node, string enums."""

    def visit(node: Any, path: str) -> None:
        if not isinstance(node, dict):
            problems.error(f"{what}: {path}: schema node is {type(node).__name__}, expected an object")
            return
        unknown = sorted(set(node) - allowed)
        if unknown:
            problems.error(f"{what}: {path}: key(s) the Gemini Developer API rejects: {unknown}")
        t = node.get("type")
        if t is not None and (not isinstance(t, str) or t.upper() not in GEMINI_TYPES):
            problems.error(f"{what}: {path}: type must be one of {sorted(GEMINI_TYPES)}, got {t!r}")
        props = node.get("properties")
        if isinstance(props, dict):
            for name, child in props.items():
                if not GEMINI_PROPERTY_NAME.fullmatch(name):
                    problems.warn(f"{what}: {path}: property name {name!r} outside {GEMINI_PROPERTY_NAME.pattern}")
                visit(child, f"{path}/properties/{name}")
        items = node.get("items")
        if items is not None:
            visit(items, f"{path}/items")
        for i, child in enumerate(node.get("anyOf") or node.get("any_of") or []):
            visit(child, f"{path}/anyOf/{i}")

    visit(schema, "#")


# --------------------------------------------------------------------------------------
# Per-target validators. Each takes the parsed payload and returns
# [(tool name, Problems)], plus top-level problems under the name "-".
# --------------------------------------------------------------------------------------

ToolResults = list[tuple[str, Problems]]

_RESP_PARAM = TypeAdapter(openai.types.responses.FunctionToolParam)
_RESP_PARAM_KEYS = typed_dict_keys(openai.types.responses.FunctionToolParam)
_RESP_MODEL_KEYS = model_keys(openai.types.responses.FunctionTool)

_CHAT_TOOL_TD = getattr(openai.types.chat, "ChatCompletionFunctionToolParam", None) or getattr(
    openai.types.chat, "ChatCompletionToolParam"
)
_CHAT_PARAM = TypeAdapter(_CHAT_TOOL_TD)
_CHAT_PARAM_KEYS = typed_dict_keys(_CHAT_TOOL_TD)
_CHAT_FN_TD_KEYS = typed_dict_keys(openai.types.shared_params.FunctionDefinition)
_CHAT_FN_MODEL_KEYS = model_keys(openai.types.shared.FunctionDefinition)

_ANTHROPIC_PARAM = TypeAdapter(anthropic.types.ToolParam)
_ANTHROPIC_KEYS = typed_dict_keys(anthropic.types.ToolParam)
_ANTHROPIC_INPUT_TYPED = TypeAdapter(anthropic.types.tool_param.InputSchemaTyped)

_MCP_TOOL_KEYS = model_keys(mcp.types.Tool)
_MCP_RESULT_KEYS = model_keys(mcp.types.ListToolsResult)
_MCP_ANNOTATION_KEYS = model_keys(mcp.types.ToolAnnotations)
_MCP_ICON_KEYS = model_keys(mcp.types.Icon)

_GEMINI_TOOL_KEYS = model_keys(genai_types.Tool)
_GEMINI_DECL_KEYS = model_keys(genai_types.FunctionDeclaration)
_GEMINI_DEVAPI_SCHEMA_KEYS = model_keys(genai_types.Schema) - GEMINI_VERTEX_ONLY


def _mldev_client() -> Any:
    # vertexai=False pins the Developer API ("mldev") code paths whatever the environment
    # says; constructing the client does no I/O.
    return genai.Client(api_key="interop-offline-no-network", vertexai=False)._api_client


_GEMINI_API = _mldev_client()


def tool_name(tool: Any, *path: str) -> str:
    node = tool
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, str) else "?"


def expect_list(payload: Any, target: str) -> tuple[list[Any], ToolResults]:
    if isinstance(payload, list):
        return payload, []
    p = Problems()
    p.error(f"{target} payload must be a JSON array, got {type(payload).__name__}")
    return [], [("-", p)]


def validate_openai_responses(payload: Any, strict_flag: bool) -> ToolResults:
    tools, results = expect_list(payload, "openai-responses")
    for tool in tools:
        p = Problems()
        p.run("FunctionToolParam", lambda: _RESP_PARAM.validate_python(tool))
        p.run("FunctionTool", lambda: openai.types.responses.FunctionTool.model_validate(tool))
        check_keys(p, "FunctionToolParam", tool, _RESP_PARAM_KEYS)
        check_keys(p, "FunctionTool", tool, _RESP_MODEL_KEYS)
        if isinstance(tool, dict):
            check_name(p, "openai", tool.get("name"), OPENAI_NAME)
            params = tool.get("parameters")
            if params is not None:
                check_root_object(p, "openai parameters", params)
            if tool.get("strict") is True:
                check_openai_strict(p, params)
            elif strict_flag:
                p.warn(f"exported with strict={tool.get('strict')!r} under --strict")
        results.append((tool_name(tool, "name"), p))
    return results


def validate_openai_chat(payload: Any, strict_flag: bool) -> ToolResults:
    tools, results = expect_list(payload, "openai-chat")
    for tool in tools:
        p = Problems()
        p.run(_CHAT_TOOL_TD.__name__, lambda: _CHAT_PARAM.validate_python(tool))
        check_keys(p, _CHAT_TOOL_TD.__name__, tool, _CHAT_PARAM_KEYS)
        fn = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(fn, dict):
            p.run("shared.FunctionDefinition", lambda: openai.types.shared.FunctionDefinition.model_validate(fn))
            check_keys(p, "function (shared_params.FunctionDefinition)", fn, _CHAT_FN_TD_KEYS)
            check_keys(p, "function (shared.FunctionDefinition)", fn, _CHAT_FN_MODEL_KEYS)
            check_name(p, "openai", fn.get("name"), OPENAI_NAME)
            params = fn.get("parameters")
            if params is not None:
                check_root_object(p, "openai parameters", params)
            if fn.get("strict") is True:
                check_openai_strict(p, params)
            elif strict_flag:
                p.warn(f"exported with strict={fn.get('strict')!r} under --strict")
        results.append((tool_name(tool, "function", "name"), p))
    return results


def validate_anthropic(payload: Any, strict_flag: bool) -> ToolResults:
    tools, results = expect_list(payload, "anthropic")
    for tool in tools:
        p = Problems()
        p.run("ToolParam", lambda: _ANTHROPIC_PARAM.validate_python(tool))
        check_keys(p, "ToolParam", tool, _ANTHROPIC_KEYS)
        if isinstance(tool, dict):
            check_name(p, "anthropic", tool.get("name"), ANTHROPIC_NAME)
            if "input_schema" in tool:
                schema = tool["input_schema"]
                p.run("InputSchemaTyped", lambda: _ANTHROPIC_INPUT_TYPED.validate_python(schema))
                if tool.get("strict") is True:
                    check_anthropic_strict(p, schema)
                elif strict_flag:
                    p.warn(f"exported with strict={tool.get('strict')!r} under --strict")
        results.append((tool_name(tool, "name"), p))
    return results


def validate_mcp(payload: Any, strict_flag: bool) -> ToolResults:
    results: ToolResults = []
    top = Problems()
    if not isinstance(payload, dict) or not isinstance(payload.get("tools"), list):
        top.error("mcp payload must be an object with a `tools` array")
        return [("-", top)]
    check_keys(top, "ListToolsResult", payload, _MCP_RESULT_KEYS)
    rest = {k: v for k, v in payload.items() if k != "tools"}
    # The tools are validated one by one below, so their errors name the tool.
    top.run("ListToolsResult", lambda: mcp.types.ListToolsResult.model_validate({**rest, "tools": []}, by_name=False))
    if top.errors or top.warnings:
        results.append(("-", top))
    for tool in payload["tools"]:
        p = Problems()
        one = {**rest, "tools": [tool]}
        p.run("ListToolsResult", lambda: mcp.types.ListToolsResult.model_validate(one, by_name=False))
        for version in MCP_VERSIONS:
            body = {**MCP_2026_ENVELOPE, **one} if version == "2026-07-28" else one
            p.run(
                f"parse_server_result(tools/list, {version})",
                lambda: mcp.types.methods.parse_server_result("tools/list", version, body),
            )
        # The MCP schema leaves Tool open to extra keys, and toolpact keeps a tool's unknown
        # fields so that MCP JSON round-trips; only vendor-style `x-` keys are expected here.
        check_keys(p, "Tool", tool, _MCP_TOOL_KEYS | {k for k in tool if k.startswith("x-")})
        if isinstance(tool, dict):
            check_keys(p, "Tool.annotations", tool.get("annotations"), _MCP_ANNOTATION_KEYS)
            for i, icon in enumerate(tool.get("icons") or []):
                check_keys(p, f"Tool.icons[{i}]", icon, _MCP_ICON_KEYS)
            name = tool.get("name")
            if isinstance(name, str) and not MCP_NAME.fullmatch(name):
                p.warn(f"mcp name {name!r} outside SEP-986 {MCP_NAME.pattern}")
        results.append((tool_name(tool, "name"), p))
    return results


def _gemini_request_body(tool: genai_types.Tool) -> Any:
    """Build the Developer API generateContent body the way `Models.generate_content` does."""
    params = genai_types._GenerateContentParameters(
        model="gemini-2.5-flash",
        contents="ping",
        config=genai_types.GenerateContentConfig(tools=[tool]),
    )
    body = genai_models._GenerateContentParameters_to_mldev(_GEMINI_API, params, None, params)
    body.pop("config", None)
    body = genai_common.convert_to_dict(body)
    body = genai_common.encode_unserializable_types(body)
    return json.loads(json.dumps(body))


def validate_gemini(payload: Any, strict_flag: bool, json_variant: bool) -> ToolResults:
    target = "gemini-json" if json_variant else "gemini"
    groups, results = expect_list(payload, target)
    for gi, group in enumerate(groups):
        top = Problems()
        decls = group.get("functionDeclarations") if isinstance(group, dict) else None
        # The declarations are validated one by one below, so their errors name the tool.
        others = {k: v for k, v in group.items() if k != "functionDeclarations"} if isinstance(group, dict) else group
        group_tool = top.run("Tool", lambda: genai_types.Tool.model_validate(others))
        check_keys(top, "Tool", group, _GEMINI_TOOL_KEYS)
        if group_tool is not None and isinstance(others, dict) and others:
            top.run("generateContent request (Developer API)", lambda: _gemini_request_body(group_tool))
        if not isinstance(decls, list):
            top.error(f"tools[{gi}]: expected a `functionDeclarations` array")
            decls = []
        if top.errors or top.warnings:
            results.append(("-", top))
        for decl in decls:
            p = Problems()
            tool = p.run("Tool", lambda: genai_types.Tool.model_validate({"functionDeclarations": [decl]}))
            check_keys(p, "FunctionDeclaration", decl, _GEMINI_DECL_KEYS)
            if isinstance(decl, dict):
                check_name(p, "gemini", decl.get("name"), GEMINI_NAME)
                if "parameters" in decl and "parametersJsonSchema" in decl:
                    p.error("parameters and parametersJsonSchema are mutually exclusive")
                if "response" in decl and "responseJsonSchema" in decl:
                    p.error("response and responseJsonSchema are mutually exclusive")
                if json_variant:
                    for key in ("parameters", "response"):
                        if key in decl:
                            p.error(f"gemini-json emitted OpenAPI `{key}`; expected `{key}JsonSchema`")
                    if "parametersJsonSchema" in decl:
                        check_root_object(p, "parametersJsonSchema", decl["parametersJsonSchema"])
                    if "responseJsonSchema" in decl and not isinstance(decl["responseJsonSchema"], (dict, bool)):
                        p.error("responseJsonSchema is not a JSON Schema")
                else:
                    for key in ("parametersJsonSchema", "responseJsonSchema"):
                        if key in decl:
                            p.error(f"gemini emitted `{key}`; expected the OpenAPI `{key[: -len('JsonSchema')]}`")
                    for key in ("parameters", "response"):
                        if key in decl:
                            schema = decl[key]
                            check_gemini_openapi_schema(p, key, schema, _GEMINI_DEVAPI_SCHEMA_KEYS)
                            if isinstance(schema, dict):
                                p.run(
                                    f"process_schema({key}, Developer API client)",
                                    lambda: genai_transformers.process_schema(copy.deepcopy(schema), _GEMINI_API),
                                )
                    if isinstance(decl.get("parameters"), dict):
                        ptype = decl["parameters"].get("type")
                        if not isinstance(ptype, str) or ptype.upper() != "OBJECT":
                            p.error(f"parameters root must be type OBJECT, got {ptype!r}")
            if tool is not None:
                p.run("generateContent request (Developer API)", lambda: _gemini_request_body(tool))
            results.append((tool_name(decl, "name"), p))
    return results


VALIDATORS: dict[str, Callable[[Any, bool], ToolResults]] = {
    "mcp": validate_mcp,
    "openai-responses": validate_openai_responses,
    "openai-chat": validate_openai_chat,
    "anthropic": validate_anthropic,
    "gemini": lambda payload, strict: validate_gemini(payload, strict, json_variant=False),
    "gemini-json": lambda payload, strict: validate_gemini(payload, strict, json_variant=True),
}


def count_tools(target: str, payload: Any) -> int | None:
    try:
        if target == "mcp":
            return len(payload["tools"])
        if target in ("gemini", "gemini-json"):
            return sum(len(g.get("functionDeclarations") or []) for g in payload)
        return len(payload)
    except Exception:
        return None


# --------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------

DEFAULT_EXTENSIONS = ("json", "yaml", "yml", "toml")
# Fixtures meant to be rejected (exit 2 is then the right answer): a path component or a
# file name starting with invalid/malformed, as in `invalid_missing_name.json`.
DEFAULT_EXPECT_INVALID = r"(^|[/\\])(invalid|malformed)([_./\\-]|$)"
SKIP_NAME = re.compile(r"(\.snap$|\.expected\.|\.out\.|^README|^\.)", re.IGNORECASE)


@dataclass
class Check:
    fixture: str
    variant: Variant
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    note: str = ""


def discover(paths: Iterable[str], extensions: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            for file in sorted(path.rglob("*")):
                if not file.is_file() or any(part.startswith(".") for part in file.parts[len(path.parts) :]):
                    continue
                if SKIP_NAME.search(file.name):
                    continue
                if file.suffix.lstrip(".").lower() in extensions:
                    found.append(file)
        else:
            print(f"interop: skipping {raw}: no such file or directory", file=sys.stderr)
    return found


def run_variant(binary: str, fixture: Path, variant: Variant, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [binary, "convert", str(fixture), *variant.argv()],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def check_fixture(
    binary: str, fixture: Path, variants: list[Variant], expect_invalid: re.Pattern[str], timeout: float
) -> list[Check]:
    checks: list[Check] = []
    invalid_expected = bool(expect_invalid.search(fixture.as_posix()))
    counts: dict[str, int] = {}
    exits: dict[str, int] = {}
    for variant in variants:
        check = Check(str(fixture), variant)
        checks.append(check)
        try:
            proc = run_variant(binary, fixture, variant, timeout)
        except subprocess.TimeoutExpired:
            check.failures.append(f"-: toolpact timed out after {timeout:.0f}s")
            continue
        stderr_tail = one_line(proc.stderr, 300)
        exits[variant.label] = proc.returncode
        if proc.returncode == 2:
            if invalid_expected:
                check.note = "rejected as expected (exit 2)"
            else:
                check.failures.append(f"-: toolpact exited 2 (bad input) on a valid fixture: {stderr_tail}")
            continue
        if proc.returncode not in (0, 1):
            check.failures.append(f"-: toolpact exited {proc.returncode}: {stderr_tail}")
            continue
        try:
            payload = json.loads(proc.stdout)
        except json.JSONDecodeError as exc:
            check.failures.append(f"-: stdout is not JSON ({exc}); exit {proc.returncode}: {stderr_tail}")
            continue
        if proc.returncode == 1:
            check.note = f"exit 1 (some tools left out): {stderr_tail}"
        elif invalid_expected:
            check.warnings.append("-: fixture is marked invalid but toolpact exited 0")
        n = count_tools(variant.target, payload)
        if n is not None:
            counts[variant.label] = n
        for name, problems in VALIDATORS[variant.target](payload, variant.strict):
            check.failures.extend(f"{name}: {e}" for e in problems.errors)
            check.warnings.extend(f"{name}: {w}" for w in problems.warnings)

    # A target that claims everything converted (exit 0) must export every tool MCP exported.
    reference = counts.get("mcp") if exits.get("mcp") == 0 else None
    if reference is not None:
        for check in checks:
            label = check.variant.label
            if exits.get(label) == 0 and label in counts and counts[label] != reference:
                check.failures.append(
                    f"-: exit 0 but exported {counts[label]} tool(s) where mcp exported {reference} (silent drop?)"
                )
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="path to the toolpact binary")
    parser.add_argument("paths", nargs="*", help="fixture files or directories (searched recursively)")
    parser.add_argument(
        "--target",
        action="append",
        dest="targets",
        metavar="LABEL",
        help="only this target variant, e.g. 'anthropic' or 'anthropic --strict' (repeatable)",
    )
    parser.add_argument("--ext", default=",".join(DEFAULT_EXTENSIONS), help="fixture file extensions in directories")
    parser.add_argument("--expect-invalid", default=DEFAULT_EXPECT_INVALID, help="regex for fixtures that should exit 2")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per toolpact run")
    parser.add_argument("-v", "--verbose", action="store_true", help="also print passing checks and warnings")
    parser.add_argument("--no-warnings", action="store_true", help="do not print WARN lines")
    args = parser.parse_intermixed_args(argv)

    if not os.access(args.binary, os.X_OK):
        print(f"interop: {args.binary} is not an executable file", file=sys.stderr)
        return 2
    variants = list(VARIANTS)
    if args.targets:
        wanted = set(args.targets)
        variants = [v for v in VARIANTS if v.label in wanted]
        unknown = wanted - {v.label for v in variants}
        if unknown:
            print(f"interop: unknown target variant(s) {sorted(unknown)}", file=sys.stderr)
            return 2
    extensions = tuple(e.strip().lstrip(".").lower() for e in args.ext.split(",") if e.strip())
    fixtures = discover(args.paths, extensions)
    if not fixtures:
        print("interop: no fixtures found", file=sys.stderr)

    expect_invalid = re.compile(args.expect_invalid)
    passed = failed = 0
    for fixture in fixtures:
        for check in check_fixture(args.binary, fixture, variants, expect_invalid, args.timeout):
            where = f"{check.fixture} [{check.variant.label}]"
            if check.failures:
                failed += 1
                for line in check.failures:
                    print(f"FAIL {where} {line}")
            else:
                passed += 1
                if args.verbose:
                    print(f"ok   {where}" + (f" ({check.note})" if check.note else ""))
            if not args.no_warnings:
                for line in check.warnings:
                    print(f"WARN {where} {line}")
    print(f"interop: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
