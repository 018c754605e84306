"""validate and Tools: typed errors and the model-readable text, for calls in every shape."""

from __future__ import annotations

import json

import pytest

import toolpact


def test_a_valid_call_in_each_provider_shape(forecast):
    tools = toolpact.Tools(forecast)
    arguments = {"city": "Lisbon", "days": 3}
    calls = {
        "mcp": {"name": "get_forecast", "arguments": arguments},
        "openai-chat": {
            "id": "call_1",
            "type": "function",
            "function": {"name": "get_forecast", "arguments": json.dumps(arguments)},
        },
        "openai-responses": {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_forecast",
            "arguments": json.dumps(arguments),
        },
        "anthropic": {"type": "tool_use", "id": "toolu_1", "name": "get_forecast", "input": arguments},
        "gemini": {"functionCall": {"name": "get_forecast", "args": arguments}},
    }
    for shape, call in calls.items():
        result = tools.validate(call)
        assert result.valid, (shape, result)
        assert result.outcome == "ok"
        assert result.tool == "get_forecast"
        assert result.errors == []
        assert result.message is None
        assert result.arguments == arguments
    assert tools.validate(calls["anthropic"]).call_id == "toolu_1"


def test_invalid_arguments_give_typed_errors_and_the_message(forecast):
    result = toolpact.validate(forecast, {"name": "get_forecast", "arguments": {"days": 9, "extra": 1}})
    assert not result.valid
    assert not result
    assert result.outcome == "invalid-arguments"
    kinds = {e.kind: e for e in result.errors}
    assert set(kinds) >= {"missing", "unknown"}
    days = next(e for e in result.errors if e.pointer == "/days")
    assert days.got == 9
    assert days.expected
    assert "7" in days.message
    for error in result.errors:
        assert isinstance(error, toolpact.ArgumentError)
        assert error.message in result.message
        assert str(error).startswith((error.pointer or "/") + ": " + error.kind)
    assert "get_forecast" in result.message


def test_the_report_is_the_commands_json(forecast, forecast_path, tmp_path):
    call = {"name": "get_forecast", "arguments": {"city": "L"}}
    (tmp_path / "call.json").write_text(json.dumps(call))
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "toolpact", "validate", str(forecast_path), "--call",
         str(tmp_path / "call.json"), "--format", "json"],
        capture_output=True, text=True,
    )
    assert out.returncode == 1, out.stderr
    assert toolpact.validate(forecast, call).to_dict() == json.loads(out.stdout)


def test_unknown_tool_suggests_names(forecast):
    result = toolpact.Tools(forecast).validate({"name": "get_forcast", "arguments": {}})
    assert result.outcome == "unknown-tool"
    assert result.suggestions == ["get_forecast"]
    assert "Did you mean `get_forecast`?" in result.message


def test_lenient_repairs_and_reports(forecast):
    tools = toolpact.Tools(forecast)
    call = {"name": "get_forecast", "arguments": {"city": "Lisbon", "days": "3"}}
    assert not tools.validate(call).valid
    repaired = tools.validate(call, lenient=True)
    assert repaired.valid
    assert repaired.arguments == {"city": "Lisbon", "days": 3}
    assert repaired.repairs == [{"pointer": "/days", "from": "3", "to": 3}]


def test_not_a_call_raises_with_the_commands_message(forecast):
    with pytest.raises(toolpact.CallError, match="not a tool call in any shape"):
        toolpact.validate(forecast, {"what": "ever"})
    with pytest.raises(toolpact.ToolpactError):
        toolpact.validate(forecast, [1, 2])


def test_values_that_are_not_json_say_where(forecast):
    with pytest.raises(TypeError, match=r"the call at /arguments/when: datetime is not a JSON value"):
        import datetime

        toolpact.validate(forecast, {"name": "get_forecast", "arguments": {"when": datetime.datetime.now()}})
    with pytest.raises(TypeError, match="a key is int"):
        toolpact.validate(forecast, {"name": "get_forecast", "arguments": {1: 2}})
    with pytest.raises(TypeError, match="NaN is not a JSON number"):
        toolpact.validate(forecast, {"name": "get_forecast", "arguments": {"days": float("nan")}})


def test_tools_from_text_path_and_handle(forecast, forecast_path):
    from_path = toolpact.Tools(forecast_path)
    from_text = toolpact.Tools(forecast_path.read_text())
    from_bytes = toolpact.Tools(forecast_path.read_bytes())
    again = toolpact.Tools(from_path)
    for tools in (from_path, from_text, from_bytes, again):
        assert tools.names() == ["get_forecast"]
        assert len(tools) == 1
        assert "get_forecast" in tools
    assert from_path.to_list()[0]["inputSchema"] == forecast[0]["inputSchema"]


def test_unreadable_tools_raise_catalog_errors(tmp_path):
    with pytest.raises(toolpact.CatalogError, match="not valid JSON|JSON") as error:
        toolpact.Tools("{not json")
    assert "pathlib.Path" not in str(error.value)
    # A file name given as a str is JSON text that cannot be read: the error says how to pass
    # the file.
    with pytest.raises(toolpact.CatalogError, match=r'pass a path: pathlib.Path\("tools.json"\)'):
        toolpact.Tools("tools.json")
    with pytest.raises(toolpact.ToolpactError, match="cannot read"):
        toolpact.Tools(tmp_path / "missing.json")
    duplicate = [{"name": "a", "inputSchema": {"type": "object"}}] * 2
    with pytest.raises(toolpact.CatalogError):
        toolpact.Tools(duplicate)


def test_read_back_through_a_strict_export(forecast):
    call = {"name": "get_forecast", "arguments": {"city": "Lisbon", "days": None, "units": None}}
    assert not toolpact.validate(forecast, call).valid
    result = toolpact.validate(forecast, call, target="openai-responses", strict=True)
    assert result.valid, result.message
    assert result.arguments == {"city": "Lisbon"}
    assert [step["pointer"] for step in result.read_back] == ["/days", "/units"]
