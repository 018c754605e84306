"""export, import_tools, check, lock, diff, build_request, read_response and the poisoning
scan, on Python values, against what the command prints for the same input."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

import toolpact


def command(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed `toolpact` command, run as a user runs it."""
    return subprocess.run([sys.executable, "-m", "toolpact", *args], capture_output=True, text=True)


def test_export_is_the_commands_convert(forecast, forecast_path):
    for target in ("openai-chat", "openai-responses", "anthropic", "gemini", "mcp"):
        exported = toolpact.export(forecast, target)
        out = command("convert", str(forecast_path), "--to", target)
        assert out.returncode == 0, out.stderr
        assert exported["payload"] == json.loads(out.stdout), target
        assert exported["target"] == target
        assert exported["left_out"] == []


def test_export_reports_losses_and_renamed_tools():
    tool = {
        "name": "shop.find-gift",
        "description": "Finds a gift.",
        "inputSchema": {
            "type": "object",
            "properties": {"price": {"type": "number", "exclusiveMinimum": 0, "format": "decimal"}},
        },
    }
    exported = toolpact.export([tool], "openai-responses", strict=True)
    assert exported["losses"], exported
    loss = exported["losses"][0]
    assert set(loss) >= {"tool", "index", "pointer", "kind", "message"}
    renamed = {"name": "shop find gift!", "inputSchema": {"type": "object"}}
    gemini = toolpact.export([renamed], "gemini")
    assert gemini["names"] == {"shop_find_gift_": "shop find gift!"}
    assert gemini["payload"][0]["functionDeclarations"][0]["name"] == "shop_find_gift_"
    with pytest.raises(ValueError, match="unknown target"):
        toolpact.export([tool], "openai")


def test_import_tools_reads_any_format_with_origins(forecast):
    chat = toolpact.export(forecast, "openai-chat")["payload"]
    entries = toolpact.import_tools(chat)
    assert [e["tool"]["name"] for e in entries] == ["get_forecast"]
    assert entries[0]["format"] == "openai-chat"
    assert entries[0]["origin"]["pointer"] == "/0"
    assert entries[0]["origin"]["file"] == "<tools>"
    anthropic = toolpact.export(forecast, "anthropic")["payload"]
    again = toolpact.import_tools(anthropic, format="anthropic")
    assert again[0]["tool"]["inputSchema"]["properties"] == forecast[0]["inputSchema"]["properties"]


def test_import_notes_are_warnings():
    chat = [
        {"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}},
        {"type": "web_search"},
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        entries = toolpact.import_tools(chat)
    assert [e["tool"]["name"] for e in entries] == ["a"]
    assert any("note:" in str(w.message) for w in caught), [str(w.message) for w in caught]


def test_check_findings_and_the_commands_text(repo):
    path = repo / "fixtures" / "seeds" / "bad_get_weather.json"
    report = toolpact.check(path)
    codes = {f["code"] for f in report.findings}
    assert "TP102" in codes
    assert len(report) == len(report.findings)
    assert report.summary["tools"] == 1
    assert report.max_severity in ("error", "warning", "info")
    out = command("check", str(path))
    assert report.render() == out.stdout
    assert str(report) == out.stdout
    assert json.loads(report.render("json")) == json.loads(command("check", str(path), "--format", "json").stdout)
    assert report.render("github") == command("check", str(path), "--format", "github").stdout
    sarif = json.loads(report.render("sarif"))
    assert sarif["version"] == "2.1.0"


def test_check_select_ignore_and_config(repo):
    path = repo / "fixtures" / "seeds" / "bad_get_weather.json"
    only = toolpact.check(path, select=["TP102"])
    assert {f["code"] for f in only.findings} == {"TP102"}
    without = toolpact.check(path, ignore=["TP102"])
    assert "TP102" not in {f["code"] for f in without.findings}
    configured = toolpact.check(path, config={"select": ["TP102"]})
    assert {f["code"] for f in configured.findings} == {"TP102"}
    with pytest.raises(toolpact.SettingsError, match="TP9999|no rule"):
        toolpact.check(path, select=["TP9999"])
    with pytest.raises(ValueError, match="no severity"):
        only.fails_at("fatal")
    assert only.fails_at("info")


def test_check_config_file(repo, tmp_path):
    config = tmp_path / "toolpact.toml"
    config.write_text('ignore = ["TP102"]\n')
    path = repo / "fixtures" / "seeds" / "bad_get_weather.json"
    report = toolpact.check(path, config=config)
    assert "TP102" not in {f["code"] for f in report.findings}


def test_lock_is_the_commands_lock_and_diff_classifies(repo, tmp_path):
    v1 = repo / "examples" / "catalogs" / "gift-shop.json"
    v2 = repo / "examples" / "catalogs" / "gift-shop-v2.json"
    out = tmp_path / "toolpact.lock"
    assert command("lock", str(v1), "-o", str(out)).returncode == 0
    assert toolpact.lock_text(v1) == out.read_text()
    assert toolpact.lock(v1) == json.loads(out.read_text())
    assert toolpact.diff(v1, v1) == []
    changes = toolpact.diff(toolpact.lock(v1), v2)
    assert changes
    assert {"class", "kind", "tool"} <= set(changes[0])
    assert changes == toolpact.diff(out, v2) == toolpact.diff(v1, v2)
    locked = toolpact.check(v2, locked=out)
    assert "TP590" in {f["code"] for f in locked.findings}


def test_diff_of_an_enum_value_removed_is_breaking(repo):
    case = repo / "fixtures" / "diff" / "breaking-enum-value-removed"
    changes = toolpact.diff(case / "old.json", case / "new.json")
    assert changes[0]["class"] == "breaking"


def test_build_request_and_read_response(repo):
    gifts = repo / "examples" / "catalogs" / "gift-shop.json"
    messages = json.loads((repo / "fixtures" / "conversations" / "first-turn.json").read_text())
    request = toolpact.build_request(
        gifts, "anthropic", messages, system="Be brief.", model="claude-sonnet-4-5", max_tokens=512
    )
    body = request["body"]
    assert body["model"] == "claude-sonnet-4-5"
    assert body["system"] == "Be brief."
    assert body["tools"]
    out = command(
        "request", str(gifts), "--to", "anthropic", "--messages",
        str(repo / "fixtures" / "conversations" / "first-turn.json"),
        "--model", "claude-sonnet-4-5", "--max-tokens", "512",
    )
    assert out.returncode == 0, out.stderr
    expected = json.loads(out.stdout)
    expected["system"] = "Be brief."
    assert body == expected
    for target in ("openai-responses", "openai-chat", "gemini"):
        assert toolpact.build_request(gifts, target, messages, model="m")["body"]
    with pytest.raises(toolpact.RequestError, match="max_tokens"):
        toolpact.build_request(gifts, "anthropic", messages, model="claude-sonnet-4-5")
    with pytest.raises(toolpact.RequestError, match="no messages"):
        toolpact.build_request(gifts, "anthropic", [], model="m", max_tokens=1)

    response = json.loads((repo / "fixtures" / "responses" / "anthropic" / "one-call.json").read_text())
    reply = toolpact.read_response("anthropic", response, tools=gifts)
    assert [c["name"] for c in reply["calls"]] == ["suggest_gifts"]
    assert reply["stop"]["kind"]
    call = reply["calls"][0]
    assert call["id"] == "toolu_01A09q90qw90lq917835lq9"
    assert call["arguments"]["interests"] == ["hiking", "coffee"]
    assert call["error"] is None
    assert reply["message"]["toolCalls"][0]["id"] == call["id"]
    with pytest.raises(toolpact.ResponseError, match="overloaded"):
        toolpact.read_response(
            "anthropic",
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        )


def test_scan_text_and_value(repo):
    case = json.loads((repo / "fixtures" / "security" / "poisoned" / "concealment" / "con-01.json").read_text())
    found = toolpact.scan_text(case["tool"]["description"])
    assert found, "the BCC description is concealment"
    first = found[0]
    assert set(first) >= {"technique", "code", "what", "pointer", "quote", "encoding", "obfuscated"}
    assert first["pointer"] == ""
    assert first["code"].startswith("TP5")
    in_value = toolpact.scan_value({"content": [{"type": "text", "text": case["tool"]["description"]}]})
    assert in_value[0]["pointer"] == "/content/0/text"
    assert toolpact.scan_text("Returns the forecast for a city.") == []
    assert toolpact.scan_value("Returns the forecast for a city.") == []


def test_pydantic_models_are_tools_and_values(forecast):
    pydantic = pytest.importorskip("pydantic")

    class get_forecast(pydantic.BaseModel):  # noqa: N801 - the class name is the tool's name
        """Returns the daily weather forecast for a city for the next 1 to 7 days."""

        city: str = pydantic.Field(min_length=2, description="City name")
        days: int = pydantic.Field(default=1, ge=1, le=7)

    tools = toolpact.Tools([get_forecast])
    assert tools.names() == ["get_forecast"]
    listed = tools.to_list()[0]
    assert listed["description"].startswith("Returns the daily weather")
    assert "title" not in listed["inputSchema"]
    assert tools.validate({"name": "get_forecast", "arguments": get_forecast(city="Lisbon")}).valid
    assert not tools.validate({"name": "get_forecast", "arguments": {"city": "L"}}).valid


def test_mcp_tool_objects_are_read_through_model_dump(forecast):
    types = pytest.importorskip("mcp.types")
    tool = types.Tool(**forecast[0])
    exported = toolpact.export([tool], "mcp")
    assert exported["payload"]["tools"][0]["inputSchema"] == forecast[0]["inputSchema"]
