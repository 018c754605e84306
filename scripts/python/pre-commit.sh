#!/usr/bin/env bash
# Tries the hooks of .pre-commit-hooks.yaml with `pre-commit try-repo` on a sample repository
# made in a temporary directory: clean tool definitions and an up-to-date lock pass both hooks;
# then a tool with an error fails toolpact-check, and a changed tool fails toolpact-lock.
#
# pre-commit installs this repository as a Python package in its own environment, building
# the wheel with maturin. MATURIN_PEP517_ARGS builds it in the dev profile and
# CARGO_TARGET_DIR points cargo at the workspace's target directory, so that the dependencies
# `cargo test` compiled are reused rather than built again in release (only the workspace's
# own crates are compiled again, since pre-commit builds from its own clone).
#
# Uses target/python-venv (see setup.sh) for pre-commit itself and for the `toolpact` that
# writes the sample's lock file. Exit status: 0 every expectation held, 1 otherwise.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

label=pre-commit
# shellcheck source=scripts/python/setup.sh
source scripts/python/setup.sh

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo_root/target}"
export MATURIN_PEP517_ARGS="--profile dev"
# pre-commit's clones and environments, kept out of the home directory.
export PRE_COMMIT_HOME="$repo_root/target/pre-commit-home"
# The sample's commits need an identity on a machine that has none.
export GIT_AUTHOR_NAME=toolpact GIT_AUTHOR_EMAIL=toolpact@example.invalid
export GIT_COMMITTER_NAME=toolpact GIT_COMMITTER_EMAIL=toolpact@example.invalid

sample="$(mktemp -d)"
trap 'rm -rf "$sample"' EXIT
cp fixtures/seeds/get_forecast.json "$sample/tools.json"
"$venv/bin/toolpact" lock "$sample/tools.json" -o "$sample/toolpact.lock" 2>/dev/null
git -C "$sample" init --quiet
git -C "$sample" add .
git -C "$sample" commit --quiet -m "The sample's tools and their lock"

failed=0
log="$sample.log"
try() {
    # try EXPECTED_STATUS: runs both hooks over every file of the sample, in one try-repo (each
    # try-repo installs the hooks afresh, building the wheel).
    local expected=$1 status=0
    (cd "$sample" && "$repo_root/$venv/bin/pre-commit" try-repo "$repo_root" --all-files \
        --color never) >"$log" 2>&1 || status=$?
    if [[ $status -ne $expected ]]; then
        echo "pre-commit: FAILED: the hooks exited $status, expected $expected" >&2
        cat "$log" >&2
        failed=1
    else
        echo "pre-commit: the hooks exited $status, as expected" >&2
    fi
}
expect() {
    # expect TEXT WHY: the last run's output holds TEXT.
    if ! grep -qF -- "$1" "$log"; then
        echo "pre-commit: FAILED: $2 (no \"$1\" in the output)" >&2
        cat "$log" >&2
        failed=1
    fi
}

# Clean tool definitions and an up-to-date lock: both hooks pass.
try 0
expect "toolpact check" "toolpact-check did not run"
expect "toolpact lock --check" "toolpact-lock did not run"

# A tool definitions file with an error, and a changed tool without a new lock: toolpact-check
# fails and shows the finding in more-tools.json; toolpact-lock fails and names the tool.
printf '[{"name": "bad name!", "inputSchema": {"type": "object"}}]\n' >"$sample/more-tools.json"
sed -i 's/Read-only\./Read-only; cached for an hour./' "$sample/tools.json"
git -C "$sample" add .
try 1
expect "more-tools.json:" "toolpact-check did not report more-tools.json"
expect "toolpact.lock is stale (changed: get_forecast)" "toolpact-lock did not name the changed tool"
rm -f "$log"
exit "$failed"
