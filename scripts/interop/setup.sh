# Sourced by run.sh and differential.sh, from the repository root: sets up the interop
# virtual environment (target/interop-venv, from requirements.txt, again whenever the
# requirements change) and builds the `toolpact` binary the scripts run. Sets `venv`,
# `profile` and `binary`; `label` names the calling script in messages.

# shellcheck source=scripts/lib/venv.sh
source scripts/lib/venv.sh
python_venv "$label" target/interop-venv scripts/interop/requirements.txt

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
