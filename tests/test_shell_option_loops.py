"""Option loops a script run as written (without arguments) never enters (flow round 47, shubhamrgandhi/critic-training's
`scripts/vllm_serve.sh`): `MODEL=...` before `while [[ $# -gt 0 ]]; do case $1 in --model) MODEL="$2"; shift 2;; ...`
keeps its value, so `vllm serve $MODEL` unquoted is one known word, and the message says the finding is taken
when the script runs without arguments. A loop the script enters without arguments, or one whose body changes
more than plain variables, keeps what it assigns open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

CASE_LOOP = 'while [[ $# -gt 0 ]]; do\n  case $1 in\n    --model)\n      MODEL="$2"\n      shift 2\n      ;;\n    *)\n      exit 1\n      ;;\n  esac\ndone\n'
MASK_ONLY = "--enable-scale-out --return-sampling-mask"


def script(loop: str, flags: str = MASK_ONLY, before: str = "") -> str:
    return (
        "#!/bin/bash\n"
        'MODEL="SWE-bench/SWE-agent-LM-32B"\n'
        "PORT=8085\n"
        f"{loop}"
        f"{before}"
        f"vllm serve $MODEL --port $PORT {flags} 2>&1 | tee $LOG_FILE &\n"
    )


def launch_line(text: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if line.startswith("vllm serve"))


def test_the_default_before_an_option_loop_is_the_model_run_as_written(tmp_path: Path) -> None:
    text = script(CASE_LOOP)
    assert check(tmp_path, {"scripts/vllm_serve.sh": text}) == [("vllm_serve.sh", launch_line(text), "RPL003")]
    assert "(when the script is run without arguments)" in run(tmp_path)[0]["message"]


def test_the_same_launch_with_processed_logprobs_stays_clean(tmp_path: Path) -> None:
    text = script(CASE_LOOP, f"{MASK_ONLY} --logprobs-mode processed_logprobs")
    assert check(tmp_path, {"scripts/vllm_serve.sh": text}) == []


@pytest.mark.parametrize(
    "loop",
    [
        'while [ "$#" -gt 0 ]; do\n  case "$1" in\n    -m|--model) MODEL="$2"; shift 2 ;;\n    *) shift ;;\n  esac\ndone\n',
        'while (( "$#" )); do\n  case "$1" in\n    --model) MODEL=$2; shift 2;;\n    *) shift;;\n  esac\ndone\n',
        "while (( $# > 0 )); do MODEL=$1; shift; done\n",
        "until [ $# -eq 0 ]; do MODEL=$1; shift; done\n",
        'while [ -n "$1" ]; do MODEL=$1; shift; done\n',
        'while [[ $# -gt 0 && "$1" == --* ]]; do\n  case $1 in --model) MODEL="$2"; shift 2;; esac\ndone\n',
        'while getopts "m:p:" opt; do\n  case $opt in\n    m) MODEL=$OPTARG ;;\n    p) PORT=$OPTARG ;;\n  esac\ndone\n',
        'for arg in "$@"; do\n  case $arg in\n    --model=*) MODEL="${arg#*=}" ;;\n  esac\ndone\n',
        'for arg; do\n  case $arg in --model=*) MODEL="${arg#*=}" ;; esac\ndone\n',
    ],
)
def test_real_spellings_of_option_loops_are_not_entered_without_arguments(tmp_path: Path, loop: str) -> None:
    text = script(loop)
    assert check(tmp_path, {"run.sh": text}) == [("run.sh", launch_line(text), "RPL003")]


def test_a_function_parsing_the_scripts_arguments_is_not_entered_either(tmp_path: Path) -> None:
    parse = 'parse_args() {\n  while [[ $# -gt 0 ]]; do\n    case $1 in --model) MODEL="$2"; shift 2;; *) shift;; esac\n  done\n}\nparse_args "$@"\n'
    text = script(parse)
    assert check(tmp_path, {"run.sh": text}) == [("run.sh", launch_line(text), "RPL003")]


@pytest.mark.parametrize(
    "loop",
    [
        'while [ "$#" -le 2 ]; do MODEL=$1; break; done\n',  # entered without arguments
        'for arg in "$*"; do MODEL=$arg; done\n',  # one empty word: entered once
        "while read -r line; do MODEL=$line; done < models.txt\n",  # not about the arguments
        'while [[ $# -gt 0 ]]; do\n  case $1 in --model) source "$2"; shift 2;; esac\ndone\n',  # reads a file
        'while [[ $# -gt 0 ]]; do\n  case $1 in --model) eval "MODEL=$2"; shift 2;; esac\ndone\n',
    ],
)
def test_loops_entered_or_left_open_keep_the_launch_open(tmp_path: Path, loop: str) -> None:
    assert check(tmp_path, {"run.sh": script(loop)}) == []


def test_a_model_only_the_loop_sets_stays_open(tmp_path: Path) -> None:
    text = script(CASE_LOOP).replace('MODEL="SWE-bench/SWE-agent-LM-32B"\n', "")
    assert check(tmp_path, {"run.sh": text}) == []


def test_a_loop_that_also_exports_is_read_as_any_loop(tmp_path: Path) -> None:
    loop = 'while [[ $# -gt 0 ]]; do\n  case $1 in\n    --model) MODEL="$2"; shift 2;;\n    --v1) export VLLM_USE_V2_MODEL_RUNNER=0; shift;;\n  esac\ndone\n'
    assert check(tmp_path, {"run.sh": script(loop)}) == []


def test_the_home_rc_file_sourced_before_the_launch_leaves_its_variables_alone(tmp_path: Path) -> None:
    text = script(CASE_LOOP, before="source ~/.bashrc\nconda activate vllm\n")
    assert check(tmp_path, {"scripts/vllm_serve.sh": text}) == [("vllm_serve.sh", launch_line(text), "RPL003")]


@pytest.mark.parametrize("sourced", ['source "$HOME/$ENV_FILE"', "source ~/envs/$NAME.sh", 'source "$CONF"'])
def test_other_sourced_files_not_read_keep_the_launch_open(tmp_path: Path, sourced: str) -> None:
    assert check(tmp_path, {"run.sh": script(CASE_LOOP, before=f"{sourced}\n")}) == []
