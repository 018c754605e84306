"""The `toolpact` console script: the command line run in-process through the extension,
including the commands that start async runtimes and child processes, and Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import toolpact

TOOLPACT = [sys.executable, "-m", "toolpact"]


def installed() -> str:
    """The console script pip put beside the interpreter."""
    script = Path(sys.executable).with_name("toolpact")
    assert script.exists(), f"no toolpact script beside {sys.executable}"
    return str(script)


def test_the_console_script_runs_the_command(forecast_path):
    out = subprocess.run([installed(), "--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stdout == f"toolpact {toolpact.__version__}\n"
    out = subprocess.run([installed(), "convert", str(forecast_path), "--to", "gemini"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0]["functionDeclarations"][0]["name"] == "get_forecast"


def test_exit_codes_are_the_commands(repo, tmp_path):
    assert subprocess.run([installed(), "check", str(repo / "fixtures" / "seeds" / "get_forecast.json")],
                          capture_output=True).returncode == 0
    bad = subprocess.run([installed(), "check", "--fail-on", "info",
                          str(repo / "fixtures" / "seeds" / "bad_get_weather.json")], capture_output=True)
    assert bad.returncode == 1
    missing = subprocess.run([installed(), "check", str(tmp_path / "none.json")], capture_output=True, text=True)
    assert missing.returncode == 2
    assert missing.stderr.startswith("error: cannot read")
    usage = subprocess.run([installed(), "no-such-command"], capture_output=True, text=True)
    assert usage.returncode == 2
    assert "unrecognized subcommand" in usage.stderr


def test_run_returns_the_exit_code(forecast_path, capfd):
    assert toolpact.run(["toolpact", "validate", str(forecast_path), "--tool", "get_forecast",
                         "--args", '{"city": "Lisbon"}']) == 0
    assert capfd.readouterr().out == "valid\n"
    assert toolpact.run(["toolpact", "validate", str(forecast_path), "--tool", "get_forecast",
                         "--args", '{"city": 1}']) == 1


def mcp_request(process: subprocess.Popen, message: dict) -> dict:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(message) + "\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "pytest", "version": "1"}},
}


def test_serve_over_stdio_then_end_of_input(forecast_path):
    process = subprocess.Popen([installed(), "serve", str(forecast_path)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert mcp_request(process, INITIALIZE)["result"]["serverInfo"]
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        listed = mcp_request(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert [t["name"] for t in listed["result"]["tools"]] == ["get_forecast"]
        called = mcp_request(process, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                       "params": {"name": "get_forecast", "arguments": {"city": 5}}})
        assert called["result"]["isError"] is True
        process.stdin.close()
        assert process.wait(timeout=20) == 0
    finally:
        process.kill()


def test_ctrl_c_stops_serve_as_it_stops_the_binary():
    process = subprocess.Popen([installed(), "serve", "--demo"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert mcp_request(process, INITIALIZE)["result"]["serverInfo"]
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=20)
        stderr = process.stderr.read()
        assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
        assert code == 0, stderr
        assert time.monotonic() - started < 10
    finally:
        process.kill()


def test_ctrl_c_stops_a_command_that_installs_no_handler(tmp_path):
    # `validate --call -` waits on standard input, which never comes: Ctrl-C ends it as it
    # ends the binary, by the default action.
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "a", "inputSchema": {"type": "object"}}]))
    process = subprocess.Popen([installed(), "validate", str(tools), "--call", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == -signal.SIGINT
    finally:
        process.kill()


def test_check_a_live_server_started_as_a_child(forecast_path):
    # `check -- CMD` starts the server as a child process from inside the extension.
    out = subprocess.run([installed(), "check", "--format", "json", "--", installed(), "serve", str(forecast_path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["summary"]["tools"] == 1


@pytest.mark.skipif(shutil.which("true") is None, reason="needs a `true` command")
def test_a_child_that_is_not_a_server_is_an_error():
    out = subprocess.run([installed(), "check", "--timeout", "5", "--", "true"],
                         capture_output=True, text=True, timeout=60, env={**os.environ})
    assert out.returncode == 2
    assert out.stderr.startswith("error:")
