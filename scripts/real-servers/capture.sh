#!/usr/bin/env bash
# Captures the tools/list of the real MCP servers listed in scripts/real-servers/servers.json
# (pinned versions from the npm registry and PyPI) into fixtures/servers/NAME.json:
#
#   scripts/real-servers/capture.sh                 # every server not yet captured at its pin
#   scripts/real-servers/capture.sh git notion      # only these
#   scripts/real-servers/capture.sh --force azure   # capture again
#   scripts/real-servers/capture.sh readme          # rewrite the table in fixtures/servers/README.md
#
# Packages are installed under target/real-servers/ (npm prefixes and virtual environments, one
# per server), never into the repository. Each server is started over stdio with no credentials
# (dummy values where it will not start without a variable) and listed with the official MCP
# Python SDK, in target/real-servers/client. Progress goes to standard error; a server that fails
# is reported and skipped, and the exit status is then 1.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
client="$repo_root/target/real-servers/client"

if [[ ! -x "$client/bin/python" ]] || ! "$client/bin/python" -c 'import mcp' 2>/dev/null; then
    echo "[real-servers] creating the client environment (mcp==2.3.0) in $client" >&2
    "${PYTHON:-python3}" -m venv "$client"
    timeout 600 "$client/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==2.3.0" >&2
fi
exec "$client/bin/python" "$repo_root/scripts/real-servers/capture.py" "$@"
