#!/usr/bin/env bash
# Fetches a pinned copy of the official JSON-Schema-Test-Suite
# (https://github.com/json-schema-org/JSON-Schema-Test-Suite) into target/ and prints its
# `tests` directory, for crates/toolpact/tests/json_schema_suite.rs:
#
#   TOOLPACT_JSON_SCHEMA_TEST_SUITE="$(scripts/fetch-json-schema-test-suite.sh)" \
#       cargo test -p toolpact --test json_schema_suite
#
# Where it comes from, and why not npm: no npm package carries a current suite. The
# `json-schema-test-suite` package (0.0.8 to 0.0.10) holds only draft3 and draft4, the suite
# repository's own package.json (0.1.0) was never published, and `@json-schema-org/tests`
# 2.0.0 is a loader whose only dependency is a `github:` tarball. The source distribution of
# python-jsonschema on PyPI does carry it: that project keeps the suite as a git subtree in
# `json/` (tests/, remotes/, LICENSE), and ships it in every sdist. The version and the
# archive's SHA-256 are pinned here; bump both together.
#
# Idempotent and quiet: a second run only prints the directory. Needs python3 with pip (PyPI
# only), sha256sum and tar.
set -euo pipefail

version="4.26.0"
sha256="0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$repo_root/target/json-schema-test-suite"
archive="$dest/jsonschema-$version.tar.gz"
suite="$dest/jsonschema-$version/json"

if [[ ! -d "$suite/tests/draft2020-12" || ! -d "$suite/remotes" ]]; then
    mkdir -p "$dest"
    if [[ ! -f "$archive" ]]; then
        # --no-binary: the wheel leaves the suite out; only the sdist has it.
        "${PYTHON:-python3}" -m pip download --quiet --disable-pip-version-check \
            --no-deps --no-binary :all: --dest "$dest" "jsonschema==$version" >&2
    fi
    if ! echo "$sha256  $archive" | sha256sum --check --quiet --strict - >&2; then
        rm -f "$archive"
        echo "fetch-json-schema-test-suite: $archive does not match the pinned SHA-256" >&2
        exit 1
    fi
    rm -rf "$dest/jsonschema-$version"
    tar -xzf "$archive" -C "$dest" "jsonschema-$version/json"
fi
# A path that does not change with the version, for the test's default.
if [[ "$(readlink "$dest/suite" 2>/dev/null || true)" != "jsonschema-$version/json" ]]; then
    ln -sfn "jsonschema-$version/json" "$dest/suite"
fi

echo "$dest/suite/tests"
