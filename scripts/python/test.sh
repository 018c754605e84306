#!/usr/bin/env bash
# The Python package's checks: build the wheel (dev profile, reusing the workspace's target
# directory) and install it into target/python-venv (see setup.sh); check the type stubs
# against the built module (stubtest) and the package with mypy --strict; run the pytest
# suite of crates/toolpact-py/tests; then run the installed `toolpact` command on the shipped
# examples and seeds and require the same output and exit code as the cargo-built binary.
#
#   scripts/python/test.sh [extra pytest options, e.g. -x -k validate]
#
# Exit status: 0 all checks passed, 1 some failed.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

label=python
# shellcheck source=scripts/python/setup.sh
source scripts/python/setup.sh

echo "python: type stubs" >&2
"$venv/bin/python" -m mypy.stubtest toolpact._toolpact \
    --allowlist crates/toolpact-py/stubtest-allowlist.txt
"$venv/bin/python" -m mypy --strict -p toolpact

echo "python: pytest" >&2
"$venv/bin/python" -m pytest crates/toolpact-py/tests -q "$@"

echo "python: the installed command on the examples, against the binary" >&2
cargo build --quiet -p toolpact-cli
binary="${CARGO_TARGET_DIR:-target}/debug/toolpact"
installed=("$venv/bin/toolpact")
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failed=0
runs=0
same() {
    # Runs one command line with both, in the same directory, and compares everything.
    local code_binary=0 code_installed=0
    "$binary" "$@" >"$scratch/binary.out" 2>"$scratch/binary.err" || code_binary=$?
    "${installed[@]}" "$@" >"$scratch/installed.out" 2>"$scratch/installed.err" || code_installed=$?
    runs=$((runs + 1))
    if [[ $code_binary -ne $code_installed ]] ||
        ! cmp -s "$scratch/binary.out" "$scratch/installed.out" ||
        ! cmp -s "$scratch/binary.err" "$scratch/installed.err"; then
        echo "python: FAILED: toolpact $* (exit $code_binary from the binary, $code_installed installed)" >&2
        diff "$scratch/binary.out" "$scratch/installed.out" | head -20 >&2 || true
        diff "$scratch/binary.err" "$scratch/installed.err" | head -20 >&2 || true
        failed=1
    fi
}
# `check` loads the token counter's tables, a second in a debug build: one run over every file.
files=(examples/catalogs/*.json fixtures/seeds/*.json)
same check "${files[@]}" --fail-on info
same check "${files[@]}" --format sarif
same check examples/catalogs/gift-shop.json --format github
for file in "${files[@]}"; do
    for target in mcp openai-responses openai-chat anthropic gemini; do
        same convert "$file" --to "$target"
    done
    same lock "$file" -o -
done
same check examples/catalogs/gift-shop-v2.json --locked=examples/catalogs/gift-shop.lock
same diff examples/catalogs/gift-shop.lock examples/catalogs/gift-shop-v2.json
same validate fixtures/seeds/get_forecast.json --tool get_forecast --args '{"city": "Lisbon", "days": 9}'
same rules
same rule TP102
same --help

# The wheel's command as uv and pipx run it, without installing it anywhere (their caches and
# tool folders in the scratch directory, no index needed: the wheel has no dependencies).
echo "python: uvx and pipx run the wheel's command" >&2
export UV_CACHE_DIR="$scratch/uv-cache" UV_TOOL_DIR="$scratch/uv-tools" \
    PIPX_HOME="$scratch/pipx" PIPX_BIN_DIR="$scratch/pipx-bin"
installed=("$venv/bin/uvx" --offline --quiet --from "$wheel" toolpact)
# A live server checked over stdio, the demo's database in the scratch directory.
same check -- "$binary" serve --demo --db "$scratch/gift-shop.sqlite"
same convert fixtures/seeds/get_forecast.json --to gemini
installed=("$venv/bin/pipx" run --quiet --spec "$wheel" toolpact)
same check examples/catalogs/gift-shop.json
same validate fixtures/seeds/get_forecast.json --tool get_forecast --args '{"city": "Lisbon"}'
echo "python: $runs command lines run with both" >&2
exit "$failed"
