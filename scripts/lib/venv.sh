# Sourced from the repository root by the scripts that run Python: defines `python_venv`.

# python_venv LABEL DIR REQUIREMENTS
#
# Makes DIR a virtual environment holding exactly what REQUIREMENTS pins (pinned versions from
# PyPI), and sets it up again whenever REQUIREMENTS changes. Sets `venv` to DIR. The
# interpreter is $PYTHON, or python3. LABEL names the calling script in messages.
python_venv() {
    local label="$1" dir="$2" requirements="$3"
    local python="${PYTHON:-python3}"
    local stamp="$dir/.requirements.sha256"
    local want have
    want="$(sha256sum "$requirements" | cut -d' ' -f1)"
    have="$(cat "$stamp" 2>/dev/null || true)"
    if [[ ! -x "$dir/bin/python" || "$want" != "$have" ]]; then
        echo "$label: setting up $dir" >&2
        rm -rf "$dir"
        mkdir -p "$(dirname "$dir")"
        "$python" -m venv "$dir"
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
        echo "$want" >"$stamp"
    fi
    venv="$dir"
}
