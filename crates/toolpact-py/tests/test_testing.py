"""toolpact.testing: one assertion over a list of tools or an MCP server object's tools."""

from __future__ import annotations

import asyncio

import pytest

import toolpact
from toolpact.testing import assert_no_findings, server_tools


def test_clean_tools_pass_and_the_report_is_printed(forecast_path, capsys):
    report = assert_no_findings(forecast_path)
    assert isinstance(report, toolpact.Report)
    assert capsys.readouterr().out == report.render()


def test_findings_at_the_severity_fail_with_the_commands_text(repo, capsys):
    path = repo / "fixtures" / "seeds" / "bad_get_weather.json"
    assert_no_findings(path, fail_on="error")
    with pytest.raises(AssertionError) as failure:
        assert_no_findings(path, fail_on="warning")
    text = toolpact.check(path).render()
    assert str(failure.value).endswith(text)
    assert "warning[TP102]" in str(failure.value)
    assert capsys.readouterr().out.endswith(text)
    assert_no_findings(path, fail_on="warning", ignore=["TP1", "TP2", "TP3", "TP4", "TP5"])
    with pytest.raises(ValueError, match="no severity"):
        assert_no_findings(path, fail_on="fatal")


def make_server():
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("weather")

    @server.tool()
    def get_weather(city: str) -> str:
        """Gets the weather"""
        return "sunny"

    @server.tool(annotations={"readOnlyHint": True})
    def get_forecast(city: str, days: int = 1) -> str:
        """Returns the daily weather forecast for a city for the next 1 to 7 days, as text. Read-only."""
        return "sunny"

    return server


def test_an_mcp_server_objects_tools_are_read_through_its_api():
    pytest.importorskip("mcp.server.mcpserver")
    server = make_server()
    names = [tool.name for tool in server_tools(server)]
    assert names == ["get_weather", "get_forecast"]
    with pytest.raises(AssertionError, match=r"TP102\].*get_weather"):
        assert_no_findings(server, fail_on="warning")
    report = assert_no_findings(server)
    tools = {finding["tool"] for finding in report.findings}
    assert "get_weather" in tools


def test_an_mcp_server_inside_a_running_event_loop():
    pytest.importorskip("mcp.server.mcpserver")

    async def inside() -> toolpact.Report:
        return assert_no_findings(make_server())

    assert asyncio.run(inside()).summary["tools"] == 2


def test_an_object_without_tools_is_refused():
    class Nothing:
        pass

    with pytest.raises(TypeError):
        assert_no_findings(Nothing())
    with pytest.raises(TypeError, match="has no list_tools"):
        server_tools(Nothing())
