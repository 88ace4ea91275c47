"""What held-out round 33 (magpie's `scripts/magpie-qwen2.5-7b.sh`) made the value flow follow: a
script nothing else runs, run as written (without arguments), takes its own defaults
(`res_temp=${6:-0}`, `TEMP="${TEMP:-0}"` of a variable nothing sets) and hands them to the program it
runs (`python gen_res.py --temp $res_temp`). The finding sits on the default, and the message says
whose default it is and when it is taken. A script another file runs with its words, or one that
sets the variable itself on some path, keeps the word open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

PROGRAM = (
    "import argparse\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--model_path', type=str, default='m')\n"
    "parser.add_argument('--temperature', type=float, default=0.7)\n"
    "parser.add_argument('--top_p', type=float, default=1.0)\n"
    "args = parser.parse_args()\n"
    "\n"
    "llm = LLM(model=args.model_path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "llm.generate(['q'], SamplingParams(temperature=args.temperature, top_p=args.top_p, top_k=20))\n"
)


def script(assignment: str, flag: str = "--temp $res_temp") -> str:
    return (
        "#!/bin/bash\n"
        'model_path=${1:-"Qwen/Qwen2.5-7B-Instruct"}\n'
        "res_topp=${5:-1}\n"
        f"{assignment}\n"
        "python ../exp/gen_res.py \\\n"
        "    --model_path $model_path \\\n"
        "    --top_p $res_topp \\\n"
        f"    {flag}\n"
    )


DEFAULT_LINE = 4


def tree(assignment: str, flag: str = "--temp $res_temp", **more: str) -> dict[str, str]:
    return {"exp/gen_res.py": PROGRAM, "scripts/gen.sh": script(assignment, flag), **more}


def test_a_positional_default_the_script_takes_run_as_written_is_reported_on_it(tmp_path: Path) -> None:
    assert check(tmp_path, tree("res_temp=${6:-0}")) == [("gen.sh", DEFAULT_LINE, "RPL101")]
    message = run(tmp_path)[0]["message"]
    assert "with `--temp 0` (the default at gen.sh:4, taken when the script is run with fewer than 6 arguments)" in message


def test_a_sampled_positional_default_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree("res_temp=${6:-0.7}")) == []


@pytest.mark.parametrize(
    ("assignment", "flag"),
    [
        ('TEMP="${TEMP:-0}"', '--temperature="$TEMP"'),  # its own default, quoted, given with `=`
        ("", "--temperature ${TEMPERATURE-0.0}"),  # a default written in the word itself
    ],
    ids=["own-default-quoted", "default-in-the-word"],
)
def test_a_default_of_a_variable_nothing_sets_is_reported(tmp_path: Path, assignment: str, flag: str) -> None:
    found = check(tmp_path, tree(assignment, flag))
    assert [code for _, _, code in found] == ["RPL101"]
    assert "is unset)" in run(tmp_path)[0]["message"]


def test_a_variable_the_script_sets_on_some_path_keeps_its_word_open(tmp_path: Path) -> None:
    assignment = 'if [ -n "$SAMPLE" ]; then\n  T=0.7\nfi\nres_temp=${T:-0}'
    assert check(tmp_path, tree(assignment)) == []


@pytest.mark.parametrize(
    "other",
    [
        ("scripts/run_all.sh", "bash gen.sh Qwen/Qwen2.5-7B-Instruct 1000 1 0.7 1 0.7\n"),
        ("scripts/Makefile", "gen:\n\tbash gen.sh $(MODEL) 1000 1 0.7 1 $(TEMP)\n"),
    ],
    ids=["caller-gives-it", "makefile"],
)
def test_a_script_something_else_runs_with_its_words_does_not_take_the_default(tmp_path: Path, other: tuple[str, str]) -> None:
    assert check(tmp_path, tree("res_temp=${6:-0}", **{other[0]: other[1]})) == []
