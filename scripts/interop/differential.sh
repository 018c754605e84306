#!/usr/bin/env bash
# Differential checks against independent implementations, in the interop virtual
# environment (target/interop-venv, made from requirements.txt as run.sh makes it):
#
# - check_validation.py: toolpact's verdict on instances generated from the real catalogs'
#   input schemas (fixtures/servers/, and $TOOLPACT_REFERENCE_SERVERS when set) against
#   python-jsonschema's;
# - check_canonical.py: toolpact's contract hashes against the `rfc8785` package's.
#
#   scripts/interop/differential.sh [--budget SECONDS] [--seed N] [--examples N]
#
# --budget bounds the generation of validation instances (default 45; 0 reads every schema);
# the schemas come in an order shuffled by --seed (default: the day of the year, so that runs
# on other days reach other schemas first). --examples is the number of valid instances per
# schema (default 4). Uses the debug `toolpact` (PROFILE=release for the release one).
# Exit status: 0 agreed (or every disagreement listed with its reason), 1 not, 2 bad usage.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

budget=45
seed=$((10#$(date -u +%j)))
examples=4
while [[ $# -gt 0 ]]; do
    case "$1" in
        --budget) budget="${2:?}"; shift 2 ;;
        --seed) seed="${2:?}"; shift 2 ;;
        --examples) examples="${2:?}"; shift 2 ;;
        *) echo "differential.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

label=differential
# shellcheck source=scripts/interop/setup.sh
source scripts/interop/setup.sh

validation=0
started=$SECONDS
"$venv/bin/python" scripts/interop/check_validation.py "$binary" \
    --budget "$budget" --seed "$seed" --examples "$examples" || validation=$?
echo "differential: validation took $((SECONDS - started)) s"

canonical=0
started=$SECONDS
"$venv/bin/python" scripts/interop/check_canonical.py "$binary" || canonical=$?
echo "differential: canonical form took $((SECONDS - started)) s"

if [[ $validation -eq 2 || $canonical -eq 2 ]]; then
    exit 2
elif [[ $validation -ne 0 || $canonical -ne 0 ]]; then
    exit 1
fi
