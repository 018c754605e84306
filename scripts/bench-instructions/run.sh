#!/usr/bin/env bash
# Counts the instructions each export takes, for two or more checkouts of toolpact, on the
# same catalog: a measure that does not move with the load of the machine, unlike wall-clock
# time, so commits can be compared while other work runs.
#
#   scripts/bench-instructions/run.sh CATALOG CHECKOUT...
#
# CATALOG is a catalog file (the convert bench writes its 250-tool catalog with
# `TOOLPACT_BENCH_CATALOG=/tmp/catalog-250.json cargo bench -p toolpact --bench convert -- nothing`).
# Each CHECKOUT is a directory holding a checkout of toolpact (`git worktree add DIR COMMIT`):
# the example `export_loop` is copied into it where it is missing, built in release mode, and
# run under valgrind's callgrind once with no export and once with five; the difference,
# divided by five, is one export. Prints one line per target and checkout, and each
# checkout's ratio to the first.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
if [ "$#" -lt 2 ]; then
    echo "usage: $0 CATALOG CHECKOUT..." >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "$0: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
catalog="$(realpath "$1")"
shift
targets=("mcp" "openai-responses" "openai-chat" "anthropic" "gemini" "gemini-json" "openai-chat --strict" "anthropic --strict")
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

for checkout in "$@"; do
    example="$checkout/crates/toolpact/examples/export_loop.rs"
    if [ ! -f "$example" ]; then
        mkdir -p "$(dirname "$example")"
        cp "$here/crates/toolpact/examples/export_loop.rs" "$example"
    fi
    echo "== building $checkout" >&2
    (cd "$checkout" && cargo build --release -p toolpact --example export_loop >&2)
done

count() { # binary, then the arguments after the catalog
    local bin="$1"
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$catalog" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*I *refs: *//p' | tr -d ,
}

checkouts=("$@")
printf '%-22s' "target"
for checkout in "${checkouts[@]}"; do printf '  %18s' "$(basename "$checkout")"; done
printf '\n'
for target in "${targets[@]}"; do
    read -r name flag <<<"$target"
    printf '%-22s' "$target"
    first=""
    for checkout in "${checkouts[@]}"; do
        bin="$checkout/target/release/examples/export_loop"
        zero=$(count "$bin" "$name" 0 ${flag:+"$flag"})
        five=$(count "$bin" "$name" 5 ${flag:+"$flag"})
        per=$(( (five - zero) / 5 ))
        if [ -z "$first" ]; then
            first=$per
            printf '  %18s' "$per"
        else
            printf '  %10s (%5.3f×)' "$per" "$(echo "$per / $first" | bc -l)"
        fi
    done
    printf '\n'
done
