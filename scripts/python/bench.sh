#!/usr/bin/env bash
# Builds the `toolpact` wheel in release (PROFILE=release, into the workspace's target
# directory), installs it into target/python-venv, and runs bench.py: validating one call from
# Python with toolpact, python-jsonschema and fastjsonschema side by side. The table it prints
# goes into docs/benchmarks.md. Exit status 1 when toolpact is over its budget: 2 µs for a
# valid call where python-jsonschema takes 9 µs, measured as a ratio in the same run.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

label=bench
PROFILE=release
# shellcheck source=scripts/python/setup.sh
source scripts/python/setup.sh
"$venv/bin/python" scripts/python/bench.py
