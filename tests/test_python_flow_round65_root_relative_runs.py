"""What held-out round 65 made the value flow follow (one false RPL101): the options a shell script of
the tree gives a click command, and a run whose path is written from the repository's root.

MedVLSynther's `eval/scripts/qwen2_5_vl_3b_sampled_eval.sh` runs `python eval/run_offline_inference.py
--temperature 0.6 ...` from the repository's root; the program's `@click.option("--temperature",
type=float, default=0.0)` then holds 0.6, not its default. Click's reading is followed: the names the
decorator writes (no `-` for `_`), `--name value` or `--name=value`, flags taking no word, the word made a
value by `type=` (else the default's type). A word not known, a name no option writes, a positional word
for a command without arguments, or runs that disagree leave the option open; a run naming another
program, or no run at all, leaves the default deciding."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PROGRAM = (
    "import click\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "@click.command()\n"
    '@click.option("--model", type=str, default="Qwen/Qwen2.5-VL-3B-Instruct")\n'
    '@click.option("--dp_size", type=int, default=1)\n'
    '@click.option("--enforce_eager", is_flag=True)\n'
    '@click.option("--temperature", "-t", type=float, default={default})\n'
    '@click.option("--n", type=int, default=1)\n'
    "def main(**kwargs):\n"
    "    llm = LLM(model=kwargs['model'], return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    params = SamplingParams(temperature=kwargs['temperature'], n=kwargs['n'], top_k=20)\n"
    "    llm.generate(['q'], params)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)
DEFAULT_LINE = 9
PROGRAM_PATH = "eval/run_offline_inference.py"
SCRIPT_PATH = "eval/scripts/sampled_eval.sh"


def program(default: str = "0.0") -> str:
    return PROGRAM.replace("{default}", default)


def script(*lines: str) -> str:
    return "#!/bin/bash\nset -e\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "command",
    [
        "python eval/run_offline_inference.py --model m --dp_size 2 --temperature 0.6 --n 4",
        "python eval/run_offline_inference.py --temperature=0.6",
        "python eval/run_offline_inference.py -t 0.6 --enforce_eager --n 4",
        "CUDA_VISIBLE_DEVICES=0,1 python3 eval/run_offline_inference.py \\\n    --enforce_eager \\\n    --temperature 0.6",
        "TEMP=0.6\npython eval/run_offline_inference.py --temperature $TEMP",
    ],
    ids=["medvlsynther", "equals", "short-name-and-flag", "continued-lines", "variable"],
)
def test_a_run_from_the_root_gives_the_click_option_its_value(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, {PROGRAM_PATH: program(), SCRIPT_PATH: script(command)}) == []


def test_a_greedy_temperature_the_script_gives_is_reported_on_its_word(tmp_path: Path) -> None:
    found = check(tmp_path, {PROGRAM_PATH: program("0.6"), SCRIPT_PATH: script("python eval/run_offline_inference.py --temperature 0")})
    assert found == [("sampled_eval.sh", 3, "RPL101")]


def test_a_run_beside_the_program_by_its_bare_name_counts_too(tmp_path: Path) -> None:
    files = {PROGRAM_PATH: program(), "eval/sampled_eval.sh": script("python run_offline_inference.py --temperature 0.6")}
    assert check(tmp_path, files) == []


def test_without_a_run_the_click_default_decides(tmp_path: Path) -> None:
    assert check(tmp_path, {PROGRAM_PATH: program()}) == [("run_offline_inference.py", DEFAULT_LINE, "RPL101")]


def test_a_run_that_does_not_give_the_option_keeps_the_default(tmp_path: Path) -> None:
    files = {PROGRAM_PATH: program(), SCRIPT_PATH: script("python eval/run_offline_inference.py --n 4 --enforce_eager")}
    assert check(tmp_path, files) == [("run_offline_inference.py", DEFAULT_LINE, "RPL101")]


def test_a_path_that_resolves_from_no_folder_above_runs_another_program(tmp_path: Path) -> None:
    files = {PROGRAM_PATH: program(), SCRIPT_PATH: script("python other/run_offline_inference.py --temperature 0.6")}
    assert check(tmp_path, files) == [("run_offline_inference.py", DEFAULT_LINE, "RPL101")]


@pytest.mark.parametrize(
    "command",
    [
        'python eval/run_offline_inference.py --temperature "$1"',
        'python eval/run_offline_inference.py "$@"',
        "python eval/run_offline_inference.py --temp 0.6",
        "python eval/run_offline_inference.py data.json --temperature 0.6",
        "python eval/run_offline_inference.py -t0.6",
    ],
    ids=["positional-parameter", "forwarded", "name-no-option-writes", "positional-word", "short-name-with-value"],
)
def test_words_click_would_read_otherwise_leave_the_option_open(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, {PROGRAM_PATH: program(), SCRIPT_PATH: script(command)}) == []


def test_runs_that_disagree_decide_nothing(tmp_path: Path) -> None:
    text = script(
        'if [ "$1" = greedy ]; then',
        "    python eval/run_offline_inference.py --temperature 0",
        "else",
        "    python eval/run_offline_inference.py --temperature 0.6",
        "fi",
    )
    assert check(tmp_path, {PROGRAM_PATH: program("0.6"), SCRIPT_PATH: text}) == []


def test_a_dash_is_not_an_underscore_to_click(tmp_path: Path) -> None:
    files = {PROGRAM_PATH: program(), SCRIPT_PATH: script("python eval/run_offline_inference.py --dp-size 2 --temperature 0.6")}
    assert check(tmp_path, files) == []  # click refuses `--dp-size`: the run fails, nothing is decided


def test_the_tree_checked_from_its_own_root_ties_the_run(tmp_path: Path) -> None:
    """`replaylint check .` in the repository: the files are named from the root, as the script's path is."""
    (tmp_path / "eval" / "scripts").mkdir(parents=True)
    (tmp_path / PROGRAM_PATH).write_text(program())
    (tmp_path / SCRIPT_PATH).write_text(script("python eval/run_offline_inference.py --temperature 0.6"))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "replaylint", "check", "--no-cache", "--target-vllm", "0.34.0", "."]
    done = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
