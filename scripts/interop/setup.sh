# Sourced by run.sh and differential.sh, from the repository root: sets up the interop
# virtual environment (target/interop-venv, from requirements.txt, again whenever the
# requirements change) and builds the `toolpact` binary the scripts run. Sets `venv`,
# `profile` and `binary`; `label` names the calling script in messages.

python="${PYTHON:-python3}"
venv="target/interop-venv"
requirements="scripts/interop/requirements.txt"
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

profile="${PROFILE:-debug}"
case "$profile" in
    debug) cargo build --quiet -p toolpact-cli ;;
    release) cargo build --release --quiet -p toolpact-cli ;;
    *)
        echo "$label: PROFILE must be debug or release, not '$profile'" >&2
        exit 2
        ;;
esac
binary="${CARGO_TARGET_DIR:-target}/$profile/toolpact"
