#!/usr/bin/env bash
# Validates the CI integration files offline: action.yml against GitHub's schema for actions;
# .github/workflows/*.yml and the example workflow of docs/ci.md against GitHub's schema for
# workflows, and the rule that every job sets timeout-minutes (the schemas come inside the
# check-jsonschema package); .pre-commit-hooks.yaml with `pre-commit validate-manifest` and
# the example configuration of docs/ci.md with `pre-commit validate-config`.
#
# Where the machine allows it (`unshare --net`, as root), every check runs in a network
# namespace with no network at all, which proves that none of them fetches anything.
#
# Exit status: 0 every file is valid, 1 otherwise.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cd "$repo_root"

venv="target/python-venv"
if [[ ! -x "$venv/bin/check-jsonschema" || ! -x "$venv/bin/pre-commit" ]]; then
    echo "workflows: run scripts/python/setup.sh first (target/python-venv)" >&2
    exit 1
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The fenced YAML blocks of docs/ci.md: the first is the pre-commit configuration, the second
# the workflow.
"$venv/bin/python" - "$scratch" <<'PY'
import pathlib, re, sys
blocks = re.findall(r"```yaml\n(.*?)```", pathlib.Path("docs/ci.md").read_text(), re.S)
assert len(blocks) == 2, f"docs/ci.md has {len(blocks)} YAML blocks, expected 2"
out = pathlib.Path(sys.argv[1])
(out / "pre-commit-config.yaml").write_text(blocks[0])
(out / "workflow.yml").write_text(blocks[1])
PY

offline=()
if unshare --net true 2>/dev/null; then
    offline=(unshare --net)
    echo "workflows: checking without network (unshare --net)" >&2
else
    echo "workflows: unshare --net is not allowed here; checking with the network as it is" >&2
fi

"${offline[@]}" "$venv/bin/check-jsonschema" --builtin-schema vendor.github-actions action.yml
"${offline[@]}" "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows \
    .github/workflows/*.yml "$scratch/workflow.yml"
"${offline[@]}" "$venv/bin/check-jsonschema" --builtin-schema custom.github-workflows-require-timeout \
    .github/workflows/*.yml "$scratch/workflow.yml"
"${offline[@]}" "$venv/bin/pre-commit" validate-manifest .pre-commit-hooks.yaml
"${offline[@]}" "$venv/bin/pre-commit" validate-config "$scratch/pre-commit-config.yaml"
echo "workflows: action.yml, the workflows and the pre-commit files are valid" >&2
