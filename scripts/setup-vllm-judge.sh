#!/usr/bin/env bash
# Create the vLLM judge environment: a virtualenv with the real vLLM 0.33.0
# (installed --no-deps) next to torch 2.13.0 (CPU build) and vLLM's pinned
# pure-Python requirements.  See tests/differential/JUDGE.md.
#
#   scripts/setup-vllm-judge.sh [VENV_DIR]      (default: <repo>/.venv-judge)
#
# Idempotent: when VENV_DIR already holds this exact environment (same lock
# files, vLLM importable) it does nothing.  Set JUDGE_FORCE=1 to reinstall.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${1:-$REPO/.venv-judge}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac
REQ="$REPO/tests/differential/judge-requirements.txt"
CONS="$REPO/tests/differential/judge-constraints.txt"
VLLM_VERSION="0.33.0"
PYTHON="${JUDGE_PYTHON:-python3}"

log() { printf '[setup-vllm-judge] %s\n' "$*" >&2; }

start=$(date +%s)
stamp_value="$(cat "$REQ" "$CONS" | sha256sum | cut -c1-16) vllm==$VLLM_VERSION"
stamp_file="$VENV/.judge-stamp"

# Full check (after an install): versions, and vLLM's engine-args module imports.
healthy() {
    "$VENV/bin/python" - "$VLLM_VERSION" <<'EOF' >/dev/null 2>&1
import sys, importlib.metadata as md
assert md.version("vllm") == sys.argv[1], md.version("vllm")
assert md.version("torch").startswith("2.13.0"), md.version("torch")
import xgrammar  # noqa: F401  (vLLM needs it at import)
import vllm.engine.arg_utils  # noqa: F401
EOF
}

# Quick check (to skip work): versions and importable specs, no imports.
installed() {
    "$VENV/bin/python" - "$VLLM_VERSION" <<'EOF' >/dev/null 2>&1
import sys, importlib.metadata as md, importlib.util as iu
assert md.version("vllm") == sys.argv[1], md.version("vllm")
assert md.version("torch").startswith("2.13.0"), md.version("torch")
assert iu.find_spec("xgrammar") and iu.find_spec("vllm")
EOF
}

if [[ "${JUDGE_FORCE:-0}" != 1 && -f "$stamp_file" && "$(cat "$stamp_file")" == "$stamp_value" ]]; then
    log "checking existing environment $VENV"
    if installed; then
        log "already installed (vllm==$VLLM_VERSION, lock ${stamp_value%% *}); nothing to do"
        exit 0
    fi
    log "existing environment is broken; reinstalling"
fi

"$PYTHON" - <<'EOF'
import sys
if sys.version_info[:2] != (3, 11):
    sys.exit(f"setup-vllm-judge: needs Python 3.11 (the torch 2.13.0 CPU wheel on "
             f"this machine is cp311); got {sys.version.split()[0]}")
EOF

if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating virtualenv $VENV"
    "$PYTHON" -m venv "$VENV"
fi
rm -f "$stamp_file"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
export PIP_NO_INPUT=1

log "installing the pinned requirements (torch 2.13.0 CPU build + vLLM's pure-Python deps) with --no-deps"
"${PIP[@]}" install --no-deps -c "$CONS" -r "$REQ"

log "installing vllm==$VLLM_VERSION with --no-deps (wheel from PyPI or pip's cache)"
"${PIP[@]}" install --no-deps -c "$CONS" "vllm==$VLLM_VERSION"

log "checking that vLLM imports"
if ! healthy; then
    "$VENV/bin/python" -c "import xgrammar, vllm.engine.arg_utils" || true
    log "FAILED: the judge environment does not import"
    exit 1
fi
echo "$stamp_value" > "$stamp_file"
log "done in $(( $(date +%s) - start )) s: $VENV"
log "run the judge with: $VENV/bin/python $REPO/tests/differential/vllm_judge.py < cases.jsonl"
