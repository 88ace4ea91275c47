#!/usr/bin/env bash
# The RL frameworks' own code for the framework judge (tests/frameworks_judge/README.md).
#
#   scripts/setup-framework-judges.sh        # needs .venv-judge (scripts/setup-vllm-judge.sh)
#
# Installs, `--no-deps --no-compile --target`, into bench/.cache/framework-judges/ (git-ignored,
# wheels cached in bench/.cache/framework-wheels/):
#   verl-0.9.1/, verl-0.9.0/, verl-0.8.0/, verl-0.7.1/
#            verl's wheels: each corpus launch is judged by the release it was written for
#            (fixtures/frameworks/manifest.json `release`); one judge process imports them in turn
#   openrlhf-0.11.2/, ...  OpenRLHF's wheels (its parser and create_vllm_engines), one per release
#            whose README blocks the corpus holds
#   trl-1.16.0/, trl-1.10.0/, ...  TRL's wheels (the two ways `trl vllm-serve` starts vLLM; the
#            releases whose docstring launch the corpus holds)
#   openrlhf-deps/ what train_ppo_ray's modules import that the judge venv lacks (DeepSpeed,
#            PEFT, Accelerate, ...; imported, never run)
#   skyrl-0.4.0/  skyrl's wheel (Requires-Python 3.12; installed with --ignore-requires-python:
#            its modules parse on 3.11, runner_skyrl.py says what it needs to import there)
#   skyrl-deps/   what skyrl's config and server modules import that the judge venv lacks
#   common/  what verl's rollout and trainer modules import that the judge venv lacks: Hydra and
#            OmegaConf (verl's configuration), Ray (imported at module level; no cluster is
#            started), tensordict, datasets, pandas, pyarrow and their small dependencies.
# Each folder gets a .complete stamp; a second run finds them and exits. JUDGE_FORCE=1 reinstalls.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=.venv-judge/bin/python
WHEELS=bench/.cache/framework-wheels
TARGET=bench/.cache/framework-judges
log() { printf '[framework-judges] %s\n' "$*" >&2; }

if [[ ! -x "$PYTHON" ]]; then
    log "no judge venv: run scripts/setup-vllm-judge.sh first"
    exit 1
fi

install() {
    local name="$1"; shift
    if [[ -f "$TARGET/$name/.complete" && "${JUDGE_FORCE:-0}" != 1 ]]; then
        log "$name already installed"
        return 0
    fi
    log "installing $name: $*"
    mkdir -p "$WHEELS"
    "$PYTHON" -m pip download --quiet --disable-pip-version-check --no-deps --ignore-requires-python -d "$WHEELS" "$@"
    rm -rf "${TARGET:?}/$name"
    local files=()
    for spec in "$@"; do
        local project="${spec%%==*}"
        local pattern="${project//-/_}"
        files+=("$(ls "$WHEELS" | grep -i -E "^(${pattern}|${project})-${spec##*==}[-.]" | head -1)")
    done
    (cd "$WHEELS" && "../../../$PYTHON" -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --ignore-requires-python \
        --target "../framework-judges/$name" "${files[@]}")
    touch "$TARGET/$name/.complete"
}

for release in 0.9.1 0.9.0 0.8.0 0.7.1; do
    install "verl-$release" "verl==$release"
done
for release in 0.11.2 0.11.1 0.10.4 0.10.1 0.9.10 0.9.9 0.9.8 0.9.7 0.9.5 0.9.2 0.9.1.post1 0.9.1 0.8.11 0.8.9 0.8.8 0.8.7 0.8.6 \
    0.8.5 0.8.2 0.8.1 0.8.0 0.7.5 0.7.2 0.7.1 0.7.0; do
    install "openrlhf-$release" "openrlhf==$release"
done
for release in 1.16.0 1.10.0 1.9.2 1.9.1 1.9.0 1.8.0 1.7.1 1.7.0 1.6.0 1.5.1 1.5.0 1.4.0 1.3.0 1.2.0 1.1.0 1.0.0 0.29.1 0.29.0; do
    install "trl-$release" "trl==$release"
done
install openrlhf-deps \
    deepspeed==0.19.8 hjson==3.1.0 pylatexenc==2.11
install skyrl-0.4.0 skyrl==0.4.0
install skyrl-deps cloudpathlib==0.26.0 jaxtyping==0.3.11
install common \
    hydra-core==1.3.8 omegaconf==2.3.0 antlr4-python3-runtime==4.9.3 \
    ray==2.60.0 msgpack==1.2.4 \
    tensordict==0.10.0 pyvers==0.2.3 codetiming==1.4.0 \
    datasets==5.2.0 multiprocess==0.70.19 xxhash==4.1.0 \
    pandas==3.1.1 pyarrow==26.0.1 python-dateutil==4.0.0 six==1.17.0 pytz==2026.6 tzdata==2026.6 \
    torchdata==0.11.0 peft==0.21.2 accelerate==1.16.0
log "done"
