#!/usr/bin/env bash
# Runs the fuzz targets (cargo-fuzz, libFuzzer) for a bounded time each, on the stable
# toolchain, and prints how long each took. A crash, a broken property, a slow input or a
# memory blow-up fails the run; libFuzzer writes the input to fuzz/artifacts/TARGET/, which
# then belongs in fixtures/fuzz/TARGET/ with its fix.
#
#   fuzz/run.sh [--seconds N] [--rotate] [TARGET...]
#
#   --seconds N   fuzzing time per target (default 20)
#   --rotate      one group of targets, a different group each day (for CI): toolpact
#                 alone, with the linter, with the MCP server; only that group's
#                 dependencies are built
#   TARGET...     the targets to run (default: all)
#
# Needs cargo-fuzz (installed here, pinned, when missing) and a C++ compiler (the libfuzzer-sys
# crate builds libFuzzer from source). Exit status: 0 nothing found, 1 something found, 2 bad
# usage or a build failure.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$fuzz_dir"

groups=(
    "import export canonical lock"
    "call messages response lint"
    "mcp_stdio mcp_http"
)
seconds=20
rotate=false
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds)
            seconds="${2:?--seconds needs a number}"
            shift 2
            ;;
        --rotate)
            rotate=true
            shift
            ;;
        -*)
            echo "fuzz/run.sh: unknown option $1" >&2
            exit 2
            ;;
        *)
            targets+=("$1")
            shift
            ;;
    esac
done
if [[ ${#targets[@]} -eq 0 ]]; then
    if $rotate; then
        day=$((10#$(date -u +%j)))
        read -r -a targets <<<"${groups[$((day % ${#groups[@]}))]}"
    else
        read -r -a targets <<<"${groups[*]}"
    fi
fi

# The features a target needs: only those are built.
features() {
    case "$1" in
        lint) echo "lint" ;;
        mcp_*) echo "mcp" ;;
        *) echo "" ;;
    esac
}
feature_args=(--no-default-features)
wanted=""
for target in "${targets[@]}"; do
    wanted="$wanted $(features "$target")"
done
wanted="$(echo "$wanted" | tr ' ' '\n' | sort -u | tr '\n' ' ' | xargs)"
if [[ -n "$wanted" ]]; then
    feature_args+=(--features "${wanted// /,}")
fi

fuzz_version="0.13.2"
if ! cargo fuzz --version 2>/dev/null | grep -q "$fuzz_version"; then
    install_started=$SECONDS
    cargo install --quiet --locked cargo-fuzz --version "$fuzz_version"
    echo "fuzz: installed cargo-fuzz $fuzz_version in $((SECONDS - install_started)) s"
fi

# `-s none`: no sanitizer. AddressSanitizer needs `-Zsanitizer`, a nightly flag; without it
# cargo-fuzz passes only flags stable rustc takes (coverage instrumentation through
# `-Cpasses=sancov-module` and `-Cllvm-args`, `--cfg fuzzing`), and safe Rust needs no
# sanitizer to find panics, broken properties, hangs and memory blow-ups.
mkdir -p artifacts
build_started=$SECONDS
for target in "${targets[@]}"; do
    if ! cargo fuzz build -s none "${feature_args[@]}" "$target" >artifacts/build.log 2>&1; then
        grep -v '^ *Compiling ' artifacts/build.log >&2
        echo "fuzz: the build of $target failed" >&2
        exit 2
    fi
done
echo "fuzz: built ${targets[*]} in $((SECONDS - build_started)) s"

bash "$fuzz_dir/seed.sh" "${targets[@]}"

status=0
for target in "${targets[@]}"; do
    started=$SECONDS
    log="$fuzz_dir/artifacts/$target.log"
    mkdir -p "$fuzz_dir/artifacts/$target"
    # -timeout: one input may take 10 s at most (the MCP targets start a session each);
    # -rss_limit_mb: bounded memory; -max_len: inputs up to 64 KiB.
    if cargo fuzz run -s none "${feature_args[@]}" "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        echo "fuzz: $target: $runs runs in $((SECONDS - started)) s, nothing found"
    else
        status=1
        echo "fuzz: $target: FOUND SOMETHING after $((SECONDS - started)) s; the end of $log:"
        tail -n 60 "$log"
        ls -l "$fuzz_dir/artifacts/$target"
    fi
done
exit "$status"
