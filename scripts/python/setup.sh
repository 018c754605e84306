# Sourced by the scripts of scripts/python/, from the repository root: sets up the virtual
# environment (target/python-venv, from requirements.txt, again whenever the requirements
# change), builds the `toolpact` wheel with maturin in the dev profile (PROFILE=release for a
# release build, as the benchmark wants) into the workspace's target directory, so that
# everything `cargo build`/`cargo test` compiled is reused, and installs it into the venv.
# Sets `venv` and `wheel`; `label` names the calling script in messages.

python="${PYTHON:-python3}"
venv="target/python-venv"
requirements="scripts/python/requirements.txt"
stamp="$venv/.requirements.sha256"
want_hash="$(sha256sum "$requirements" | cut -d' ' -f1)"
have_hash="$(cat "$stamp" 2>/dev/null || true)"
if [[ ! -x "$venv/bin/python" || "$want_hash" != "$have_hash" ]]; then
    echo "$label: setting up $venv" >&2
    rm -rf "$venv"
    mkdir -p target
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$want_hash" >"$stamp"
fi

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
