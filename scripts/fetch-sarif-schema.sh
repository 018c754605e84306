#!/usr/bin/env bash
# Fetches the SARIF 2.1.0 JSON schema (the OASIS final, rtm.5) into target/ and prints its
# path, for crates/toolpact-lint/tests/sarif.rs:
#
#   TOOLPACT_SARIF_SCHEMA="$(scripts/fetch-sarif-schema.sh)" cargo test -p toolpact-lint --test sarif
#
# The schema ships inside Microsoft's @microsoft/jest-sarif package on the npm registry
# (lib/schemas/sarif-2.1.0-rtm.5.json). Version and SHA-256 of the tarball are pinned.
# Idempotent and quiet. Needs npm, sha256sum and tar.
set -euo pipefail

package="@microsoft/jest-sarif@1.0.0-beta.0"
tarball="microsoft-jest-sarif-1.0.0-beta.0.tgz"
sha256="748e2c3d1a842e7bb258416685c7ea3a0da40005b72267b2052c2856d48ad102"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$repo_root/target/sarif-schema"
schema="$dest/sarif-2.1.0-rtm.5.json"

if [[ ! -f "$schema" ]]; then
    mkdir -p "$dest"
    (cd "$dest" && npm pack --silent "$package" >/dev/null)
    if ! echo "$sha256  $dest/$tarball" | sha256sum --check --quiet --strict - >&2; then
        rm -f "$dest/$tarball"
        echo "fetch-sarif-schema: $tarball does not match the pinned SHA-256" >&2
        exit 1
    fi
    tar -xzf "$dest/$tarball" -C "$dest" --strip-components=3 package/lib/schemas/sarif-2.1.0-rtm.5.json
fi
echo "$schema"
