#!/usr/bin/env bash
# Tests scripts/check-module-cycles.py on two small source trees: `acyclic` must pass, and
# `cyclic` must fail listing each of its cycles, every one of which is found only when one way
# of naming a module (a facade's re-export, a glob re-export, an alias, a module imported by
# name, a path after a raw byte string) is resolved. Each case's exact output is in its
# `expected.txt`, so that a check that stops seeing an edge fails here, not silently in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."

failed=0
for case in acyclic cyclic; do
    dir="scripts/module-cycles/$case"
    status=0
    actual="$(python3 scripts/check-module-cycles.py "$dir/src")" || status=$?
    want_status=0
    [ "$case" = cyclic ] && want_status=1
    if [ "$status" != "$want_status" ]; then
        echo "module-cycles/$case: exit status $status, expected $want_status" >&2
        failed=1
    fi
    if ! diff -u "$dir/expected.txt" <(printf '%s\n' "$actual") >&2; then
        echo "module-cycles/$case: output differs from $dir/expected.txt" >&2
        failed=1
    fi
done
[ "$failed" = 0 ] && echo "module-cycles: both cases give the expected output"
exit "$failed"
