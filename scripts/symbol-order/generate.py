#!/usr/bin/env python3
"""Writes crates/toolpact-cli/symbol-order.txt: the functions the `toolpact` binary runs in its
long-lived commands, in the order the linker is to lay them out.

The kernel maps a program's code in 64 KiB runs around each page a process touches, so a
proxy or a server that runs 3 MiB of functions spread over 19 MiB of machine code keeps about
13 MiB of it resident. Laid out together, the same functions take about 4 MiB
(docs/benchmarks.md, "The binary's code, laid out by use"). The list is the functions
valgrind's callgrind sees run in these workloads, the most important first:

1. `toolpact proxy --http` holding 1,000 calls (the proxy_load benchmark's memory measure);
2. `toolpact proxy` over stdio and over HTTP, a whole session in front of `serve --demo`;
3. `toolpact serve --demo` over stdio and over HTTP, a whole session;
4. `toolpact check` on the captured real servers' catalogs, in each output format.

Run it after a change of dependencies or of the compiler (the symbols' names carry a hash of
their crate and version: a stale list only leaves the functions it no longer names where the
linker puts them, and `--check` tells how much of it still matches):

    python3 scripts/symbol-order/generate.py            # build, profile, write the list
    python3 scripts/symbol-order/generate.py --check    # how much of the list the build names

Needs valgrind, and takes about ten minutes beside the release build.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORDER = ROOT / "crates/toolpact-cli/symbol-order.txt"
BINARY = ROOT / "target/release/toolpact"
# What `toolpact proxy` and `toolpact check` put in their environment before they start
# (crates/toolpact-cli/src/main.rs): given here, the command does not start itself again, which
# would leave valgrind.
ALLOCATOR = {
    "MIMALLOC_ARENA_EAGER_COMMIT": "0",
    "MIMALLOC_PURGE_DELAY": "0",
    "MIMALLOC_ALLOW_THP": "0",
}
PROTOCOL = "2025-06-18"
HEADER = """\
# The functions of the `toolpact` binary its long-lived commands run, in the order the linker
# lays them out (lld's --symbol-ordering-file, passed by build.rs). Written by
# scripts/symbol-order/generate.py; do not edit by hand.
"""


def log(message):
    print(f"symbol-order: {message}", file=sys.stderr, flush=True)


def text_symbols(binary):
    """The names of the binary's functions."""
    out = subprocess.run(
        ["nm", "--defined-only", str(binary)], check=True, capture_output=True, text=True
    ).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            names.add(parts[2])
    return names


def callgrind(out_dir, name, children="yes"):
    """valgrind's command line for a profile named after its workload; with `children`, the
    servers the command starts (a proxy's upstream) are profiled too."""
    return [
        "valgrind",
        "--tool=callgrind",
        "--demangle=no",
        "--dump-instr=no",
        f"--trace-children={children}",
        f"--callgrind-out-file={out_dir}/{name}.callgrind.%p",
        "--log-file=/dev/null",
    ]


def environment():
    env = dict(os.environ)
    env.update(ALLOCATOR)
    env.setdefault("RUST_LOG", "warn")
    return env


def messages(tools_call):
    """A session a client might have: every kind of request the demo answers, calls that pass
    and calls that fail validation."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": {"name": "symbol-order", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "ui://widget/gifts.html"}},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": "prompts/list"},
    ]
    calls = [
        ("get_gift_details", {"giftId": "KITC-004"}),
        ("list_orders", {"limit": 5}),
        ("suggest_gifts", {"relationship": "friend"}),
        ("suggest_gifts", {}),
        ("create_order", {"giftId": "", "quantity": 99}),
        ("list_orders", {"limit": "five"}),
        ("no_such_tool", {}),
    ]
    for i, (name, arguments) in enumerate(calls * tools_call):
        lines.append(
            {
                "jsonrpc": "2.0",
                "id": 10 + i,
                "method": "tools/call",
                "params": {"name": name, "arguments": arguments},
            }
        )
    lines.append({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": "not an object"})
    return lines


def stdio_session(command, env):
    """Runs one stdio session to its end: the requests, each answer read before the next."""
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    for message in messages(tools_call=3):
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        if "id" in message:
            line = process.stdout.readline()
            if not line:
                raise SystemExit(f"symbol-order: {command[-3:]} closed its output")
    process.stdin.close()
    process.stdout.read()
    if process.wait(timeout=600) != 0:
        raise SystemExit(f"symbol-order: {command} failed")


def serving_url(process, marker):
    """Reads the server's standard error until it says where it listens."""
    for raw in process.stderr:
        line = raw.decode(errors="replace")
        if marker in line:
            match = re.search(r"(https?://\S+)", line)
            if match:
                return match.group(1)
    raise SystemExit("symbol-order: the server ended before it said where it listens")


def http_session(url):
    session = None

    def post(message):
        nonlocal session
        request = urllib.request.Request(url, data=json.dumps(message).encode(), method="POST")
        request.add_header("content-type", "application/json")
        request.add_header("accept", "application/json, text/event-stream")
        request.add_header("mcp-protocol-version", PROTOCOL)
        if session:
            request.add_header("mcp-session-id", session)
        try:
            with urllib.request.urlopen(request, timeout=600) as response:
                session = response.headers.get("mcp-session-id") or session
                response.read()
        except urllib.error.HTTPError as error:
            error.read()

    for message in messages(tools_call=3):
        post(message)
    if session:
        request = urllib.request.Request(url, method="DELETE")
        request.add_header("mcp-session-id", session)
        request.add_header("mcp-protocol-version", PROTOCOL)
        try:
            urllib.request.urlopen(request, timeout=600).read()
        except urllib.error.HTTPError as error:
            error.read()


def stop(process):
    """Ends a server under valgrind with SIGTERM, so that callgrind writes its profile."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=600)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit("symbol-order: a server did not stop on SIGTERM")


def http_server(command, env, marker):
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    try:
        http_session(serving_url(process, marker))
    finally:
        stop(process)


def proxy_load(bench, out_dir, env):
    """The benchmark's memory measure of `toolpact proxy --http`, with the proxy under
    callgrind. The benchmark kills the process it started when it is done, so the script it
    starts runs valgrind in the background, says its process id, and the profile is written
    when this script ends it."""
    pid_file = out_dir / "proxy-load.pid"
    wrapper = out_dir / "toolpact-under-callgrind"
    # Its upstream is the benchmark's own server: not profiled.
    valgrind = " ".join(callgrind(out_dir, "1-proxy-load", children="no"))
    wrapper.write_text(
        "#!/bin/sh\n"
        f'{valgrind} "{BINARY}" "$@" &\n'
        f'echo $! > "{pid_file}"\n'
        "wait\n"
    )
    wrapper.chmod(0o755)
    subprocess.run([str(bench), "--seconds", "0.2", "--toolpact", str(wrapper)], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    pid = int(pid_file.read_text())
    os.kill(pid, signal.SIGTERM)
    for _ in range(6000):
        if not Path(f"/proc/{pid}").exists():
            return
        time.sleep(0.1)
    raise SystemExit("symbol-order: the proxy under callgrind did not stop")


def bench_binary():
    out = subprocess.run(
        ["cargo", "bench", "-p", "toolpact-mcp", "--bench", "proxy_load", "--no-run",
         "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable") \
                and message["target"]["name"] == "proxy_load":
            return Path(message["executable"])
    raise SystemExit("symbol-order: cargo did not say where the proxy_load benchmark is")


def profiled_functions(out_dir, names):
    """The functions each profile saw run, grouped by workload in the order of their files'
    names, each function once, in the order callgrind first wrote it."""
    order, seen = [], set()
    for path in sorted(out_dir.glob("*.callgrind.*"), key=lambda p: p.name):
        before = len(order)
        for line in path.read_text(errors="replace").splitlines():
            match = re.match(r"^c?fn=\(\d+\)(?: (\S+))?", line)
            if match and match.group(1):
                name = match.group(1)
                if name in names and name not in seen:
                    seen.add(name)
                    order.append(name)
        log(f"  {path.name}: {len(order) - before} functions not listed before")
    return order


def check():
    names = text_symbols(BINARY)
    listed = [l for l in ORDER.read_text().splitlines() if l and not l.startswith("#")]
    found = sum(1 for name in listed if name in names)
    print(f"{found} of the {len(listed)} functions listed are in {BINARY.relative_to(ROOT)}"
          f" ({100 * found / max(len(listed), 1):.1f} %)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say how much of the list the release build names")
    parser.add_argument("--no-build", action="store_true",
                        help="profile target/release/toolpact as it is")
    args = parser.parse_args()
    if not args.no_build:
        log("building the release binary and the proxy benchmark")
        subprocess.run(["cargo", "build", "--release", "-p", "toolpact-cli"], cwd=ROOT, check=True)
    if args.check:
        check()
        return
    bench = bench_binary()
    env = environment()
    demo_env = dict(env)
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = Path(tmp)
        # The demo keeps its orders in a database of its own, not the user's.
        demo_env["XDG_DATA_HOME"] = str(out_dir / "data")
        toolpact = str(BINARY)
        started = time.monotonic()
        log("1/4 toolpact proxy --http, 1,000 calls in flight (proxy_load)")
        proxy_load(bench, out_dir, env)
        log("2/4 toolpact proxy over stdio and HTTP, in front of serve --demo")
        stdio_session(callgrind(out_dir, "2a-proxy-stdio") + [toolpact, "proxy", "--", toolpact, "serve", "--demo"],
                      demo_env)
        http_server(callgrind(out_dir, "2b-proxy-http") + [toolpact, "proxy", "--http", "127.0.0.1:0", "--",
                                                           toolpact, "serve", "--demo"],
                    demo_env, "serving at")
        log("3/4 toolpact serve --demo over stdio and HTTP")
        stdio_session(callgrind(out_dir, "3a-serve-stdio") + [toolpact, "serve", "--demo"], demo_env)
        http_server(callgrind(out_dir, "3b-serve-http") + [toolpact, "serve", "--demo", "--http", "127.0.0.1:0"],
                    demo_env, "serving")
        log("4/4 toolpact check on the captured servers' catalogs")
        catalogs = sorted(str(p) for p in (ROOT / "fixtures/servers").glob("*.json"))
        # Every catalog in one format; the other formats write the same findings another way.
        for fmt, files in [("json", catalogs), ("text", catalogs[:8]), ("sarif", catalogs[:8])]:
            subprocess.run(callgrind(out_dir, f"4-check-{fmt}") + [toolpact, "check", "--format", fmt] + files,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        order = profiled_functions(out_dir, text_symbols(BINARY))
        log(f"profiled in {time.monotonic() - started:.0f} s: {len(order)} functions")
    ORDER.write_text(HEADER + "".join(name + "\n" for name in order))
    log(f"wrote {ORDER.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
