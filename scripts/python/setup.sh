# Sourced by the scripts of scripts/python/, from the repository root: sets up the virtual
# environment (target/python-venv, from requirements.txt, again whenever the requirements
# change), builds the `toolpact` wheel with maturin in the dev profile (PROFILE=release for a
# release build, as the benchmark wants) into the workspace's target directory, so that
# everything `cargo build`/`cargo test` compiled is reused, and installs it into the venv.
# Sets `venv` and `wheel`; `label` names the calling script in messages.

# shellcheck source=scripts/lib/venv.sh
source scripts/lib/venv.sh
python_venv "$label" target/python-venv scripts/python/requirements.txt

profile="${PROFILE:-dev}"
case "$profile" in
    dev | release) ;;
    *)
        echo "$label: PROFILE must be dev or release, not '$profile'" >&2
        exit 2
        ;;
esac
wheels="${CARGO_TARGET_DIR:-target}/wheels/$profile"
rm -rf "$wheels"
# maturin reads pyproject.toml at the root; the interpreter it builds for is the venv's.
"$venv/bin/maturin" build --quiet --profile "$profile" --interpreter "$venv/bin/python" \
    --out "$wheels" >&2
wheel="$(ls "$wheels"/toolpact-*.whl)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "$wheel"
