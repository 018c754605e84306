#!/usr/bin/env bash
# Captures the tools/list of the official MCP reference servers (pinned versions from the npm
# registry) into target/reference-servers/tools/, for crates/toolpact-lint/tests/reference_servers.rs:
#
#   TOOLPACT_REFERENCE_SERVERS="$(scripts/reference-servers/capture.sh)" cargo test -p toolpact-lint --test reference_servers
#
# Each server is started over stdio and listed with the official MCP Python SDK (PyPI). Prints
# the output directory. Idempotent: servers already captured are not started again.
set -euo pipefail

version="2026.8.31"
servers=(everything filesystem memory sequential-thinking)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dest="$repo_root/target/reference-servers"
out="$dest/tools-$version"
venv="$dest/venv"

missing=()
for s in "${servers[@]}"; do
    [[ -f "$out/$s.json" ]] || missing+=("$s")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    mkdir -p "$dest/sandbox"
    packages=()
    for s in "${missing[@]}"; do packages+=("@modelcontextprotocol/server-$s@$version"); done
    npm install --silent --no-audit --no-fund --prefix "$dest/npm" "${packages[@]}" >&2
    if [[ ! -x "$venv/bin/python" ]]; then
        "${PYTHON:-python3}" -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==2.3.0" >&2
    fi
    specs=()
    for s in "${missing[@]}"; do
        main="$dest/npm/node_modules/@modelcontextprotocol/server-$s/dist/index.js"
        case "$s" in
            filesystem) specs+=("$s=node $main $dest/sandbox") ;;
            *) specs+=("$s=node $main") ;;
        esac
    done
    "$venv/bin/python" "$repo_root/scripts/reference-servers/capture.py" "$out" "${specs[@]}" >&2
fi
echo "$out"
