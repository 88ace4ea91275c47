"""What held-out round 29 made the value flow follow for a program `fire.Fire(main)` runs (one
missed RPL302 finding): the flags a shell script of the tree gives it.

DeepMath's `eval.sh` runs `python uni_eval.py ... --repetition_penalty 1.05`; fire hands `main` the
value (`--name value`, `--name=value`, `-` in the name as `_`, the word as a Python literal), so the
request's `repetition_penalty=repetition_penalty` holds 1.05, decided on the script's word. Every run
the tree's scripts make must agree (a run that does not give the flag: the parameter's default); a
run with a word not known (`"$@"`, `$1`), a positional word, runs that disagree, or another file
naming the program that is not read for its words, leave the parameter open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PROGRAM = (
    "import fire\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def main(\n"
    "    model: str = 'm',\n"
    "    temperature: float = 0.6,\n"
    "    top_k: int = {top_k},\n"
    "    repetition_penalty: float = 1.0,\n"
    "    n: int = 1,\n"
    "):\n"
    "    llm = LLM(model=model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    params = SamplingParams(temperature=temperature, top_k=top_k, repetition_penalty=repetition_penalty, n=n)\n"
    "    llm.generate(['q'], params)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    {runner}(main)\n"
)
TOP_K_LINE = 8


def program(top_k: str = "20", runner: str = "fire.Fire") -> str:
    text = PROGRAM.replace("{top_k}", top_k).replace("{runner}", runner)
    return text if runner.startswith("fire") else text.replace("import fire\n", "import typer\n")


def script(*lines: str) -> str:
    return "#!/bin/bash\nset -e\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "command",
    [
        "python uni_eval.py --model m --temperature 0.6 --repetition_penalty 1.05",
        "python3 -u uni_eval.py --repetition_penalty=1.05 --n 16",
        "python uni_eval.py --repetition-penalty 1.05",
        "CUDA_VISIBLE_DEVICES=0 nohup python uni_eval.py --repetition_penalty 1.05 --bf16",
        "RP=1.05; python uni_eval.py --repetition_penalty $RP",
        "python uni_eval.py --repetition_penalty 1.05 --bf16 -- --verbose",
    ],
    ids=["deepmath", "equals", "dashes", "prefixed", "variable", "fire-separator"],
)
def test_a_flag_the_script_gives_decides_on_its_word(tmp_path: Path, command: str) -> None:
    found = check(tmp_path, {"uni_eval.py": program(), "eval.sh": script(command)})
    assert found == [("eval.sh", 3, "RPL302")]


def test_the_deepmath_loop_over_data_sets_runs_it_the_same_way_each_turn(tmp_path: Path) -> None:
    text = script(
        "for DATA_ID in zwhe99/MATH zwhe99/aime90; do",
        "    python uni_eval.py \\",
        "        --data_id $DATA_ID \\",
        "        --temperature 0.6 \\",
        "        --repetition_penalty 1.05",
        "done",
    )
    assert check(tmp_path, {"uni_eval.py": program(), "eval.sh": text}) == [("eval.sh", 7, "RPL302")]


def test_a_greedy_temperature_from_the_script(tmp_path: Path) -> None:
    found = check(tmp_path, {"uni_eval.py": program(), "eval.sh": script("python uni_eval.py --temperature 0")})
    assert found == [("eval.sh", 3, "RPL101")]


def test_the_script_s_value_replaces_a_conflicting_default(tmp_path: Path) -> None:
    assert check(tmp_path, {"uni_eval.py": program("-1"), "eval.sh": script("python uni_eval.py --top_k 20")}) == []


def test_a_flag_the_script_does_not_give_keeps_the_default(tmp_path: Path) -> None:
    found = check(tmp_path, {"uni_eval.py": program("-1"), "eval.sh": script("python uni_eval.py --n 16 --repetition_penalty 1.0")})
    assert found == [("uni_eval.py", TOP_K_LINE, "RPL102")]


def test_neutral_flags_stay_clean(tmp_path: Path) -> None:
    text = script("python uni_eval.py --temperature 0.6 --top_k 20 --repetition_penalty 1.0")
    assert check(tmp_path, {"uni_eval.py": program(), "eval.sh": text}) == []


@pytest.mark.parametrize(
    "command",
    [
        'python uni_eval.py --repetition_penalty "$1"',
        'python uni_eval.py --repetition_penalty 1.05 "$@"',
        "python uni_eval.py --repetition_penalty $RP",
        "python uni_eval.py m 0.6 20 1.05",
        "python uni_eval.py -r 1.05",
    ],
    ids=["positional-parameter", "forwarded-after", "from-the-environment", "positional-words", "short-flag"],
)
def test_words_from_outside_or_bound_by_place_leave_the_parameter_open(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, {"uni_eval.py": program(), "eval.sh": script(command)}) == []


def test_a_run_forwarding_its_arguments_leaves_a_default_open(tmp_path: Path) -> None:
    assert check(tmp_path, {"uni_eval.py": program("-1"), "eval.sh": script('python uni_eval.py "$@"')}) == []


def test_runs_that_disagree_decide_nothing(tmp_path: Path) -> None:
    text = script('if [ "$1" = hard ]; then', "    python uni_eval.py --repetition_penalty 1.05", "else", "    python uni_eval.py", "fi")
    assert check(tmp_path, {"uni_eval.py": program(), "eval.sh": text}) == []


def test_a_makefile_naming_the_program_may_run_it_with_anything(tmp_path: Path) -> None:
    files = {"uni_eval.py": program("-1"), "Makefile": "eval:\n\tpython uni_eval.py $(ARGS)\n"}
    assert check(tmp_path, files) == []


def test_a_script_running_another_program_gives_it_nothing(tmp_path: Path) -> None:
    text = script("python other_eval.py --repetition_penalty 1.05", "cat uni_eval.log")
    assert check(tmp_path, {"uni_eval.py": program(), "eval.sh": text}) == []


def test_typer_reads_its_flags_its_own_way(tmp_path: Path) -> None:
    files = {"uni_eval.py": program(runner="typer.run"), "eval.sh": script("python uni_eval.py --repetition_penalty 1.05")}
    assert check(tmp_path, files) == []
