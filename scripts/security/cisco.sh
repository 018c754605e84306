#!/usr/bin/env bash
# Runs cisco-ai-mcp-scanner's offline YARA analyzer over the security corpus
# (fixtures/security/) and the captured real servers (fixtures/servers/), and prints recall
# per class and false-positive rates in the same table shape as fixtures/security/baseline.py.
#
#   scripts/security/cisco.sh [--toolpact target/debug/toolpact] [--part tuning|heldout|both]
#
# The scanner is installed from PyPI into a throwaway virtual environment under
# target/security-cisco/ (CISCO_SCANNER_VERSION pins it; the folder is reused when the same
# version is there). It runs with `--analyzers yara` only: no API key, no network. With
# --toolpact the same tables are printed for toolpact's TP501-TP511 beside it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="${CISCO_SCANNER_VERSION:-4.8.7}"
venv="$root/target/security-cisco/venv-$version"
if [[ ! -x "$venv/bin/mcp-scanner" ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "cisco-ai-mcp-scanner==$version"
fi
exec python3 "$here/cisco.py" --scanner "$venv/bin/mcp-scanner" "$@"
