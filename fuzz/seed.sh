#!/usr/bin/env bash
# Fills fuzz/corpus/TARGET/ with the seed inputs of each fuzz target, from the repository's
# fixtures, fuzz/seeds/ and the regression inputs in fixtures/fuzz/TARGET/ (every crash found
# is kept there). Files already in a corpus stay: libFuzzer adds what it finds, and a corpus
# grows from run to run on the same machine.
#
#   fuzz/seed.sh [TARGET...]        # every target when none is named
set -euo pipefail

fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$fuzz_dir/.." && pwd)"
cd "$repo"

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(import export call messages response lock canonical lint mcp_stdio mcp_http)
fi

# Copies files into the corpus under a name made from their path, with an optional prefix
# byte (the targets that read their first byte as a choice get the choice "detect").
copy() {
    local corpus="$1" prefix="$2"
    shift 2
    local file name
    for file in "$@"; do
        [[ -f "$file" ]] || continue
        name="seed-$(echo "$file" | tr '/' '_')"
        if [[ -n "$prefix" ]]; then
            { printf "$prefix"; cat "$file"; } >"$corpus/$name"
        else
            cp "$file" "$corpus/$name"
        fi
    done
}

# Small real catalogs only: a 500 KB seed makes every input that grows from it slow.
small_servers() {
    find fixtures/servers -name '*.json' -size -24k | sort
}

for target in "${targets[@]}"; do
    corpus="fuzz/corpus/$target"
    mkdir -p "$corpus"
    case "$target" in
        import | export)
            copy "$corpus" "" fixtures/formats/*.json fixtures/seeds/*.json fixtures/lowering/*.json \
                fixtures/malformed/*.json $(small_servers)
            ;;
        call)
            # \x06: detect the shape of the calls.
            copy "$corpus" '\x06' fixtures/calls/*
            for catalog in fixtures/seeds/get_forecast.json fixtures/lowering/nullable.json fixtures/lowering/unions.json; do
                for calls in fixtures/calls/*; do
                    { printf '\x06'; cat "$catalog"; printf '\x00'; cat "$calls"; } \
                        >"$corpus/seed-$(basename "$catalog" .json)-$(basename "$calls")"
                done
            done
            ;;
        messages)
            copy "$corpus" "" fixtures/conversations/*.json
            ;;
        response)
            copy "$corpus" "" fixtures/responses/*/*.json
            ;;
        lock)
            copy "$corpus" "" fuzz/seeds/lock/* fixtures/seeds/*.json
            for pair in fixtures/diff/*/; do
                { cat "$pair/old.json"; printf '\x00'; cat "$pair/new.json"; } \
                    >"$corpus/seed-diff-$(basename "$pair")"
            done
            ;;
        canonical)
            copy "$corpus" "" fuzz/seeds/canonical/* fixtures/lowering/*.json fixtures/formats/*.json
            ;;
        lint)
            copy "$corpus" "" fixtures/seeds/*.json \
                $(find crates/toolpact-lint/tests/fixtures -name '*.json' -size -8k | sort)
            ;;
        mcp_stdio | mcp_http)
            copy "$corpus" "" fuzz/seeds/"$target"/*
            ;;
        *)
            echo "seed.sh: no fuzz target named '$target'" >&2
            exit 2
            ;;
    esac
    if [[ -d "fixtures/fuzz/$target" ]]; then
        copy "$corpus" "" fixtures/fuzz/"$target"/*
    fi
done
