#!/usr/bin/env bash
# Interop check: export every fixture to every target with the `toolpact` binary
# (the debug build `cargo test` already made; PROFILE=release for the release one) and validate the JSON with the official provider Python SDKs
# (see check_exports.py), then connect the official MCP SDK's client to `toolpact serve`
# over stdio and Streamable HTTP (see check_mcp_server.py), then validate the request bodies
# `toolpact request` builds and the recorded provider responses with the SDK types (see
# check_requests.py). Needs python3 (CPython 3.11), cargo, and PyPI only.
#
#   scripts/interop/run.sh [extra check_exports.py options, e.g. -v or --target mcp]
#
# Exit status: 0 all checks passed, 1 some failed, 2 bad usage (of any script).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

label=interop
# shellcheck source=scripts/interop/setup.sh
source scripts/interop/setup.sh

fixture_dirs=()
for dir in fixtures/seeds fixtures/lowering fixtures/formats; do
    if [[ -d "$dir" ]]; then
        fixture_dirs+=("$dir")
    else
        echo "interop: skipping $dir (not present)" >&2
    fi
done

exports=0
"$venv/bin/python" scripts/interop/check_exports.py "$binary" "$@" "${fixture_dirs[@]}" || exports=$?

# The official MCP SDK as a client of `toolpact serve`, over stdio and Streamable HTTP.
server=0
"$venv/bin/python" scripts/interop/check_mcp_server.py "$binary" || server=$?

# Whole request bodies per provider, and recorded responses, against the SDK types.
requests=0
"$venv/bin/python" scripts/interop/check_requests.py "$binary" || requests=$?

if [[ $exports -eq 2 || $server -eq 2 || $requests -eq 2 ]]; then
    exit 2
elif [[ $exports -ne 0 || $server -ne 0 || $requests -ne 0 ]]; then
    exit 1
fi
