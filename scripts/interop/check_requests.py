#!/usr/bin/env python3
"""Interop check: the request bodies `toolpact request` builds, and the recorded responses
it reads, against the official provider SDK types.

    check_requests.py TOOLPACT_BINARY [-v]

Requests. Every conversation in fixtures/conversations/ is turned into a request body for
every provider, with several tool choices and the strict variants, by running
`toolpact request examples/catalogs/gift-shop.json --to TARGET ...`. Each body is validated:

* openai-responses  `TypeAdapter(openai.types.responses.ResponseCreateParamsNonStreaming)`
                    (strict: no coercion),
                    then each `input` item against its own TypedDict (EasyInputMessageParam,
                    ResponseFunctionToolCallParam, FunctionCallOutput,
                    ResponseReasoningItemParam) and `tool_choice` against the SDK's
                    `ToolChoice` union.
* openai-chat       `TypeAdapter(openai.types.chat.CompletionCreateParamsNonStreaming)`, then
                    each message against the TypedDict of its role, and each `tool_calls`
                    entry against ChatCompletionMessageFunctionToolCallParam.
* anthropic         `TypeAdapter(anthropic.types.MessageCreateParamsNonStreaming)`, then each
                    content block against the TypedDict of its type (text, tool_use,
                    tool_result, thinking, redacted_thinking).
* gemini, gemini-json
                    every part of the body against google-genai's models (`Content`, `Tool`,
                    `ToolConfig`, `GenerationConfig`, which forbid unknown fields); then the
                    SDK's own Developer API request builder (`_GenerateContentParameters_to_mldev`)
                    is run offline on those models, and what it writes for the contents, the
                    system instruction, the tool config and the generation config must be
                    exactly what toolpact wrote.

TypedDicts accept unknown keys, and pydantic validates `Iterable` fields only when they are
iterated, so the script iterates every validated value and also checks that every key is a
declared key of its TypedDict. Beyond the types it checks what the providers enforce at run
time (docs/providers.md#openai-requests, docs/providers.md#anthropic-requests,
docs/providers.md#gemini-requests): every call is answered exactly once by a result
that follows it (Anthropic: all results first in the next user turn; Gemini: one
functionResponse per functionCall, in order, by name), and roles alternate where the API
wants them to.

Refusals. A setting a provider's SDK types cannot express must make toolpact exit 2: an
allowed subset of tools for Anthropic (no `ToolChoiceParam` arm takes it), and
`--no-parallel` for Gemini (no `FunctionCallingConfig` field for it).

Responses. Every recorded response in fixtures/responses/<provider>/ must parse with the
SDK's response model (`openai.types.responses.Response`, `openai.types.chat.ChatCompletion`,
`anthropic.types.Message`, `google.genai.types.GenerateContentResponse`) with no field the
model does not declare, so the fixtures are what the APIs send.

Each check prints `ok   WHERE` or `FAIL WHERE: REASON`; the last line is
`interop: N passed, M failed`. Exit status: 0 all passed, 1 some failed, 2 bad usage.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, TypeAdapter, ValidationError

import anthropic.types as anthropic_types
import openai.types.chat as chat_types
import openai.types.responses as responses_types
from anthropic.types import message_create_params as anthropic_create
from google import genai
from google.genai import _common as genai_common
from google.genai import models as genai_models
from google.genai import types as genai_types
from openai.types.chat import completion_create_params as chat_create
from openai.types.responses import response_create_params as responses_create
from openai.types.responses import response_input_param as responses_input

from interop_common import Failed, Tally

CATALOG = "examples/catalogs/gift-shop.json"
SYSTEM = "fixtures/conversations/system.md"
CONVERSATIONS = "fixtures/conversations"
RESPONSES = "fixtures/responses"
TIMEOUT = 60

# (target, extra arguments): each is run for every conversation.
MODELS = {"openai-responses": "gpt-5", "openai-chat": "gpt-4.1", "anthropic": "claude-sonnet-4-5"}
VARIANTS: list[tuple[str, list[str]]] = [
    ("openai-responses", []),
    ("openai-responses", ["--strict", "--tool-choice", "tool:create_order"]),
    ("openai-responses", ["--tool-choice", "required:suggest_gifts,create_order", "--no-parallel"]),
    ("openai-chat", []),
    ("openai-chat", ["--strict", "--tool-choice", "allowed:suggest_gifts"]),
    ("openai-chat", ["--tool-choice", "none", "--no-parallel"]),
    ("anthropic", []),
    ("anthropic", ["--strict", "--tool-choice", "tool:suggest_gifts", "--no-parallel"]),
    ("anthropic", ["--tool-choice", "required"]),
    ("gemini", []),
    ("gemini", ["--tool-choice", "allowed:suggest_gifts"]),
    ("gemini", ["--tool-choice", "tool:create_order"]),
    ("gemini-json", []),
    ("gemini-json", ["--tool-choice", "required:suggest_gifts,create_order"]),
]


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def one_line(text: str, limit: int = 500) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def typed_dict_keys(td: type) -> set[str]:
    """Declared keys of a TypedDict, inherited ones included."""
    keys = set(getattr(td, "__required_keys__", set())) | set(getattr(td, "__optional_keys__", set()))
    if not keys:
        for klass in reversed(td.__mro__):
            keys |= set(getattr(klass, "__annotations__", {}))
    return keys


def force(value: Any) -> Any:
    """Iterate everything pydantic left lazy (`Iterable` fields), so their items are validated."""
    if isinstance(value, dict):
        return {k: force(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [force(v) for v in value]
    if isinstance(value, (str, bytes, int, float, bool)) or value is None:
        return value
    if hasattr(value, "__next__") or hasattr(value, "__iter__"):
        return [force(v) for v in value]
    return value


_ADAPTERS: dict[Any, TypeAdapter] = {}


def validate(kind: Any, value: Any, where: str) -> None:
    """Validate `value` against an SDK type (TypedDict or union), items of iterables included."""
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # Strict: no coercion ("yes" is not true, "10" is not 10).
            force(adapter.validate_python(value, strict=True))
    except ValidationError as exc:
        parts = []
        for err in exc.errors(include_url=False):
            loc = ".".join(str(p) for p in err.get("loc", ())) or "<root>"
            parts.append(f"{loc}: {err.get('msg')}")
        raise Failed(f"{where}: {getattr(kind, '__name__', kind)}: {one_line('; '.join(parts))}") from None


def keys(obj: Any, td: type, where: str, extra: set[str] = frozenset()) -> None:
    if not isinstance(obj, dict):
        raise Failed(f"{where}: expected an object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - typed_dict_keys(td) - set(extra))
    if unknown:
        raise Failed(f"{where}: key(s) {unknown} are not declared by {td.__name__}")


# --------------------------------------------------------------------------------------
# Request bodies, per provider
# --------------------------------------------------------------------------------------

RESPONSES_ITEMS = {
    "message": responses_types.EasyInputMessageParam,
    "function_call": responses_types.ResponseFunctionToolCallParam,
    "function_call_output": responses_input.FunctionCallOutput,
    "reasoning": responses_types.ResponseReasoningItemParam,
}


def check_openai_responses(body: dict[str, Any]) -> None:
    validate(responses_create.ResponseCreateParamsNonStreaming, body, "body")
    keys(body, responses_create.ResponseCreateParamsNonStreaming, "body")
    if "tool_choice" in body:
        validate(responses_create.ToolChoice, body["tool_choice"], "tool_choice")
    calls: dict[str, int] = {}
    answered: set[str] = set()
    for i, item in enumerate(body["input"]):
        kind = item.get("type", "message")
        td = RESPONSES_ITEMS.get(kind)
        if td is None:
            raise Failed(f"input[{i}]: unexpected item type {kind!r}")
        validate(td, item, f"input[{i}]")
        keys(item, td, f"input[{i}]")
        if kind == "function_call":
            if item["call_id"] in calls:
                raise Failed(f"input[{i}]: call_id {item['call_id']!r} used twice")
            calls[item["call_id"]] = i
        elif kind == "function_call_output":
            cid = item["call_id"]
            if cid not in calls:
                raise Failed(f"input[{i}]: output for {cid!r}, which no earlier function_call has")
            if cid in answered:
                raise Failed(f"input[{i}]: second output for {cid!r}")
            answered.add(cid)
    missing = sorted(set(calls) - answered)
    if missing:
        raise Failed(f"function_call(s) without output: {missing}")


CHAT_ROLES = {
    "system": chat_types.ChatCompletionSystemMessageParam,
    "user": chat_types.ChatCompletionUserMessageParam,
    "assistant": chat_types.ChatCompletionAssistantMessageParam,
    "tool": chat_types.ChatCompletionToolMessageParam,
}


def check_openai_chat(body: dict[str, Any]) -> None:
    validate(chat_create.CompletionCreateParamsNonStreaming, body, "body")
    keys(body, chat_create.CompletionCreateParamsNonStreaming, "body")
    if "tool_choice" in body:
        validate(chat_types.ChatCompletionToolChoiceOptionParam, body["tool_choice"], "tool_choice")
    pending: list[str] = []
    seen: set[str] = set()
    for i, message in enumerate(body["messages"]):
        role = message.get("role")
        td = CHAT_ROLES.get(role)
        if td is None:
            raise Failed(f"messages[{i}]: unexpected role {role!r}")
        validate(td, message, f"messages[{i}]")
        keys(message, td, f"messages[{i}]")
        if role == "system" and i != 0:
            raise Failed(f"messages[{i}]: the system message is not first")
        if role == "tool":
            if message["tool_call_id"] not in pending:
                raise Failed(f"messages[{i}]: answers {message['tool_call_id']!r}, not a pending call {pending}")
            pending.remove(message["tool_call_id"])
            continue
        if pending:
            raise Failed(f"messages[{i}]: calls {pending} were not answered before this message")
        for j, call in enumerate(message.get("tool_calls") or []):
            where = f"messages[{i}].tool_calls[{j}]"
            validate(chat_types.ChatCompletionMessageFunctionToolCallParam, call, where)
            keys(call, chat_types.ChatCompletionMessageFunctionToolCallParam, where)
            if call["id"] in seen:
                raise Failed(f"{where}: id {call['id']!r} used twice")
            seen.add(call["id"])
            pending.append(call["id"])
    if pending:
        raise Failed(f"calls {pending} were not answered")


ANTHROPIC_ROLES = {
    "user": anthropic_types.UserMessageParam,
    "assistant": anthropic_types.AssistantMessageParam,
}

ANTHROPIC_BLOCKS = {
    "text": anthropic_types.TextBlockParam,
    "tool_use": anthropic_types.ToolUseBlockParam,
    "tool_result": anthropic_types.ToolResultBlockParam,
    "thinking": anthropic_types.ThinkingBlockParam,
    "redacted_thinking": anthropic_types.RedactedThinkingBlockParam,
}


def check_anthropic(body: dict[str, Any]) -> None:
    validate(anthropic_create.MessageCreateParamsNonStreaming, body, "body")
    keys(body, anthropic_create.MessageCreateParamsNonStreaming, "body")
    if "tool_choice" in body:
        validate(anthropic_types.ToolChoiceParam, body["tool_choice"], "tool_choice")
    pending: list[str] = []
    for i, message in enumerate(body["messages"]):
        validate(anthropic_types.MessageParam, message, f"messages[{i}]")
        role_td = ANTHROPIC_ROLES.get(message.get("role"))
        if role_td is None:
            raise Failed(f"messages[{i}]: unexpected role {message.get('role')!r}")
        validate(role_td, message, f"messages[{i}]")
        keys(message, role_td, f"messages[{i}]")
        want = "user" if i % 2 == 0 else "assistant"
        if message["role"] != want:
            raise Failed(f"messages[{i}]: role {message['role']!r}, expected {want!r} (turns alternate)")
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for j, block in enumerate(blocks):
            td = ANTHROPIC_BLOCKS.get(block.get("type"))
            if td is None:
                raise Failed(f"messages[{i}].content[{j}]: unexpected block type {block.get('type')!r}")
            validate(td, block, f"messages[{i}].content[{j}]")
            keys(block, td, f"messages[{i}].content[{j}]")
        if pending:
            # All results come first in the next user turn, one per call.
            results = [b["tool_use_id"] for b in blocks[: len(pending)] if b.get("type") == "tool_result"]
            if sorted(results) != sorted(pending):
                raise Failed(f"messages[{i}]: expected tool_result blocks first for {pending}, got {results}")
            if any(b.get("type") == "tool_result" for b in blocks[len(pending) :]):
                raise Failed(f"messages[{i}]: more tool_result blocks than calls")
            pending = []
        pending = [b["id"] for b in blocks if b.get("type") == "tool_use"]
        if message["role"] == "assistant" and any(b.get("type") == "thinking" for b in blocks[1:]) and blocks[0].get("type") != "thinking":
            raise Failed(f"messages[{i}]: thinking blocks must come first")
    if pending:
        raise Failed(f"tool_use blocks {pending} were not answered")


GEMINI_KEYS = {"contents", "tools", "toolConfig", "systemInstruction", "generationConfig"}


def _gemini_api() -> Any:
    # vertexai=False pins the Developer API ("mldev") code paths; constructing the client
    # does no I/O.
    return genai.Client(api_key="interop-offline-no-network", vertexai=False)._api_client


_GEMINI_API = _gemini_api()


def _model(kind: type[BaseModel], value: Any, where: str) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return kind.model_validate(value)
    except ValidationError as exc:
        raise Failed(f"{where}: {kind.__name__}: {one_line(str(exc))}") from None


def normalize_bytes(value: Any) -> Any:
    """Bytes fields (`thoughtSignature`) decoded: proto3 JSON accepts standard and URL-safe
    base64, and the SDK writes the URL-safe form of what it read."""
    if isinstance(value, dict):
        return {
            k: base64.urlsafe_b64decode(v.replace("+", "-").replace("/", "_"))
            if k in ("thoughtSignature", "thought_signature") and isinstance(v, str)
            else normalize_bytes(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [normalize_bytes(v) for v in value]
    return value


def check_gemini(body: dict[str, Any]) -> None:
    unknown = sorted(set(body) - GEMINI_KEYS)
    if unknown:
        raise Failed(f"body: key(s) {unknown} are not part of a generateContent request")
    contents = [_model(genai_types.Content, c, f"contents[{i}]") for i, c in enumerate(body["contents"])]
    tools = [_model(genai_types.Tool, t, f"tools[{i}]") for i, t in enumerate(body.get("tools", []))]
    config = genai_types.GenerateContentConfig(
        system_instruction=_model(genai_types.Content, body["systemInstruction"], "systemInstruction")
        if "systemInstruction" in body
        else None,
        tools=tools or None,
        tool_config=_model(genai_types.ToolConfig, body["toolConfig"], "toolConfig") if "toolConfig" in body else None,
        max_output_tokens=_model(genai_types.GenerationConfig, body["generationConfig"], "generationConfig").max_output_tokens
        if "generationConfig" in body
        else None,
    )
    # The SDK's enums accept unknown values (for newer API versions); the API does not.
    mode = body.get("toolConfig", {}).get("functionCallingConfig", {}).get("mode")
    known = {m.value for m in genai_types.FunctionCallingConfigMode} - {"MODE_UNSPECIFIED"}
    if mode is not None and mode not in known:
        raise Failed(f"toolConfig.functionCallingConfig.mode {mode!r} is not one of {sorted(known)}")
    params = genai_types._GenerateContentParameters(model="gemini-2.5-flash", contents=contents, config=config)
    built = genai_models._GenerateContentParameters_to_mldev(_GEMINI_API, params, None, params)
    built = json.loads(json.dumps(genai_common.encode_unserializable_types(genai_common.convert_to_dict(built))))
    # The SDK writes schemas in its own spelling (snake_case keys, upper-case types); the tools
    # are checked by model validation above and by check_exports.py.
    for key in sorted(GEMINI_KEYS - {"tools"}):
        if normalize_bytes(body.get(key)) != normalize_bytes(built.get(key)):
            raise Failed(
                f"{key}: the SDK's request builder writes {one_line(json.dumps(built.get(key)), 300)}, "
                f"toolpact wrote {one_line(json.dumps(body.get(key)), 300)}"
            )
    # Turns alternate, and each model turn's calls are answered, in order, by the next turn.
    pending: list[dict[str, Any]] = []
    for i, content in enumerate(body["contents"]):
        want = "user" if i % 2 == 0 else "model"
        if content.get("role") != want:
            raise Failed(f"contents[{i}]: role {content.get('role')!r}, expected {want!r} (turns alternate)")
        parts = content.get("parts", [])
        if pending:
            responses = [p["functionResponse"] for p in parts[: len(pending)] if "functionResponse" in p]
            if [r["name"] for r in responses] != [c["name"] for c in pending]:
                raise Failed(f"contents[{i}]: functionResponse parts {responses} do not answer {pending} in order")
            for call, response in zip(pending, responses):
                if call.get("id") != response.get("id"):
                    raise Failed(f"contents[{i}]: functionResponse id {response.get('id')!r} for call id {call.get('id')!r}")
        pending = [p["functionCall"] for p in parts if "functionCall" in p]
    if pending:
        raise Failed(f"function calls {pending} were not answered")


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "openai-responses": check_openai_responses,
    "openai-chat": check_openai_chat,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
    "gemini-json": check_gemini,
}


# --------------------------------------------------------------------------------------
# Recorded responses
# --------------------------------------------------------------------------------------

RESPONSE_MODELS: dict[str, type[BaseModel]] = {
    "openai-responses": responses_types.Response,
    "openai-chat": chat_types.ChatCompletion,
    "anthropic": anthropic_types.Message,
    "gemini": genai_types.GenerateContentResponse,
}


def undeclared(value: Any, path: str = "$") -> list[str]:
    """Fields the SDK model kept as extras (OpenAI and Anthropic models allow them)."""
    out: list[str] = []
    if isinstance(value, BaseModel):
        out += [f"{path}.{k}" for k in (value.model_extra or {})]
        for name in type(value).model_fields:
            out += undeclared(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            out += undeclared(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, item in value.items():
            out += undeclared(item, f"{path}.{k}")
    return out


def check_response(provider: str, path: Path) -> None:
    body = json.loads(path.read_text(encoding="utf-8"))
    parsed = _model(RESPONSE_MODELS[provider], body, path.name)
    extra = undeclared(parsed)
    if extra:
        raise Failed(f"fields the SDK model does not declare: {extra[:5]}")


# --------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------


def run_request(binary: str, conversation: Path, target: str, extra: list[str]) -> subprocess.CompletedProcess[str]:
    args = [binary, "request", CATALOG, "--to", target, "--messages", str(conversation), "--max-tokens", "1024"]
    # A conversation file that is an object brings its own system prompt.
    if not conversation.read_text(encoding="utf-8").lstrip().startswith("{"):
        args += ["--system", SYSTEM]
    if target in MODELS:
        args += ["--model", MODELS[target]]
    return subprocess.run(args + extra, capture_output=True, text=True, timeout=TIMEOUT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="the toolpact binary")
    parser.add_argument("-v", "--verbose", action="store_true", help="print passing checks' stderr too")
    args = parser.parse_args()
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        print(f"interop: {args.binary} is not an executable file", file=sys.stderr)
        return 2
    repo = Path(__file__).resolve().parents[2]
    os.chdir(repo)
    tally = Tally()
    report = tally.report

    conversations = sorted(Path(CONVERSATIONS).glob("*.json"))
    if not conversations:
        print(f"interop: no conversations in {CONVERSATIONS}", file=sys.stderr)
        return 2
    for conversation in conversations:
        for target, extra in VARIANTS:
            where = f"request {conversation.name} --to {target} {' '.join(extra)}".rstrip()
            try:
                proc = run_request(args.binary, conversation, target, extra)
                if proc.returncode != 0:
                    raise Failed(f"toolpact exited {proc.returncode}: {one_line(proc.stderr, 300)}")
                try:
                    body = json.loads(proc.stdout)
                except json.JSONDecodeError as exc:
                    raise Failed(f"stdout is not JSON: {exc}") from None
                CHECKS[target](body)
                if args.verbose and proc.stderr:
                    print(proc.stderr.rstrip())
                report(where, None)
            except Failed as error:
                report(where, error)
            except Exception as error:  # noqa: BLE001 - every failure is reported, then the next check runs
                report(where, Failed(f"{type(error).__name__}: {one_line(str(error))}"))

    # What the SDK types cannot express, toolpact refuses.
    first = Path(CONVERSATIONS) / "first-turn.json"
    refusals = [
        (
            "anthropic",
            ["--tool-choice", "allowed:suggest_gifts"],
            lambda: validate(
                anthropic_types.ToolChoiceParam,
                {"type": "allowed_tools", "tools": [{"name": "suggest_gifts"}]},
                "tool_choice",
            ),
        ),
        (
            "gemini",
            ["--no-parallel"],
            lambda: _model(
                genai_types.FunctionCallingConfig,
                {"mode": "AUTO", "parallelToolCalls": False},
                "functionCallingConfig",
            ),
        ),
    ]
    for target, extra, sdk in refusals:
        where = f"refused: --to {target} {' '.join(extra)}"
        try:
            try:
                sdk()
            except Failed:
                pass
            else:
                raise Failed("the SDK types accept this setting, so toolpact should not refuse it")
            proc = run_request(args.binary, first, target, extra)
            if proc.returncode != 2 or proc.stdout:
                raise Failed(f"expected exit 2 and no body, got exit {proc.returncode}")
            report(where, None)
        except Failed as error:
            report(where, error)

    for provider in RESPONSE_MODELS:
        for path in sorted((Path(RESPONSES) / provider).glob("*.json")):
            where = f"response {provider}/{path.name}"
            try:
                check_response(provider, path)
                report(where, None)
            except Failed as error:
                report(where, error)
            except Exception as error:  # noqa: BLE001
                report(where, Failed(f"{type(error).__name__}: {one_line(str(error))}"))

    print(f"interop: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
