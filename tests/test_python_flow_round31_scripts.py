"""What held-out rounds 31 and 32 made the value flow follow for an argparse program the tree's
shell scripts run with flags (four false findings, one missed RPL102, one RPL101 at another line).

Step-DPO's `eval.sh` runs `python eval_math.py --temp 0.7 ...`, ZeroEval's `_common_eval.sh` runs
`python src/unified_infer.py --temperature $TEMP` after `TEMP=0; TOP_P=1.0;`, limit-of-RLVR's
per-GPU loop runs `python -u math_eval.py ... --use_vllm`: the script's value wins over the
option's default, and a finding is placed where the script decides the value (the variable's
assignment, else the flag's words). Runs that disagree leave the option unknown; a run whose words
argparse cannot be seen to read (`"$@"`, a short flag, a positional) leaves every option unknown;
a long flag the parser does not show (one vLLM's `add_cli_args` adds) leaves its own option unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

PROGRAM = (
    "import argparse\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def parse_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model', type=str, default='m')\n"
    "    parser.add_argument('--temp', type=float, default=0.0)\n"
    "    parser.add_argument('--top_k', type=int, default={top_k})\n"
    "    parser.add_argument('--use_vllm', action='store_true')\n"
    "    return parser.parse_args()\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    args = parse_args()\n"
    "    if {branch}:\n"
    "        llm = LLM(model=args.model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "        params = SamplingParams(temperature=args.temp, top_k=args.top_k, max_tokens=16)\n"
    "        llm.generate(['q'], params)\n"
)
TEMP_DEFAULT_LINE = 8
TOP_K_DEFAULT_LINE = 9


def program(top_k: str = "20", branch: str = "True") -> str:
    return PROGRAM.replace("{top_k}", top_k).replace("{branch}", branch)


def script(*lines: str) -> str:
    return "#!/bin/bash\nset -e\n" + "\n".join(lines) + "\n"


def test_without_a_script_the_greedy_default_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, {"eval_math.py": program()}) == [("eval_math.py", TEMP_DEFAULT_LINE, "RPL101")]


@pytest.mark.parametrize(
    "command",
    [
        "python eval_math.py --model m --temp 0.7",
        "python3 -u eval_math.py --temp=0.7",
        "CUDA_VISIBLE_DEVICES=0 nohup python eval_math.py --temp 0.7 &",
        "python eval_math.py --temp 0.7 --model x --temp 0.7",
    ],
    ids=["stepdpo", "equals", "prefixed-background", "given-twice"],
)
def test_a_sampled_temperature_the_script_gives_leaves_the_request_clean(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, {"eval_math.py": program(), "eval.sh": script(command)}) == []


def test_a_script_that_does_not_give_the_flag_keeps_the_default(tmp_path: Path) -> None:
    found = check(tmp_path, {"eval_math.py": program(), "eval.sh": script("python eval_math.py --model m")})
    assert found == [("eval_math.py", TEMP_DEFAULT_LINE, "RPL101")]


def test_a_greedy_temperature_is_reported_on_the_script_s_words(tmp_path: Path) -> None:
    found = check(tmp_path, {"eval_math.py": program(), "eval.sh": script("python eval_math.py \\", "    --temp 0")})
    assert found == [("eval.sh", 4, "RPL101")]


def test_the_zeroeval_variable_is_reported_where_the_script_assigns_it(tmp_path: Path) -> None:
    text = script(
        "TEMP=0; TOP_P=1.0; MAX_TOKENS=1024;",
        "batch_size=4;",
        "python src/eval_math.py \\",
        "    --model $1 \\",
        "    --temp $TEMP",
    )
    found = check(tmp_path, {"src/eval_math.py": program(), "scripts/_common_eval.sh": text})
    assert found == [("_common_eval.sh", 3, "RPL101")]


def test_the_zeroeval_variable_sampled_stays_clean(tmp_path: Path) -> None:
    text = script("TEMP=0.7; TOP_P=1.0;", "python src/eval_math.py --model $1 --top_k 20 --temp $TEMP")
    assert check(tmp_path, {"src/eval_math.py": program(), "scripts/_common_eval.sh": text}) == []


def test_a_store_true_flag_the_script_gives_takes_the_branch(tmp_path: Path) -> None:
    text = script(
        "for ((g=0; g<4; g++)); do",
        "    CUDA_VISIBLE_DEVICES=$g python -u math_eval.py --temp 0.6 --top_k -1 --use_vllm > log_$g 2>&1 &",
        "done",
        "wait",
    )
    found = check(tmp_path, {"math_eval.py": program(branch="args.use_vllm"), "run.sh": text})
    assert found == [("run.sh", 4, "RPL102")]


def test_the_store_true_flag_the_script_gives_decides_the_branch_and_the_message_says_so(tmp_path: Path) -> None:
    files = {"math_eval.py": program("-1", branch="args.use_vllm")}
    check(tmp_path / "given", {**files, "run.sh": script("python -u math_eval.py --temp 0.6 --use_vllm")})
    check(tmp_path / "left", {**files, "run.sh": script("python -u math_eval.py --temp 0.6")})
    given, left = run(tmp_path / "given"), run(tmp_path / "left")
    assert [f["code"] for f in given] == [f["code"] for f in left] == ["RPL102"]
    assert "args.use_vllm" not in given[0]["message"]  # the script takes the branch
    assert "when `args.use_vllm` is true" in left[0]["message"]  # the default does not take it


def test_a_temperature_from_the_script_s_own_argument_is_not_known(tmp_path: Path) -> None:
    text = script("TEMPERATURE=${5:-0.6}", 'python -u math_eval.py --temp "$TEMPERATURE" --use_vllm')
    found = check(tmp_path, {"math_eval.py": program("-1", branch="args.use_vllm"), "run.sh": text})
    assert found == [("math_eval.py", TOP_K_DEFAULT_LINE, "RPL102")]


@pytest.mark.parametrize(
    "command",
    [
        'python eval_math.py "$@"',
        'python eval_math.py --model m "$@"',
        "python eval_math.py $EXTRA_ARGS",
        "python eval_math.py -t 0.7",
        "python eval_math.py positional",
    ],
    ids=["forwarded", "forwarded-after", "from-the-environment", "short-flag", "positional-word"],
)
def test_words_argparse_may_read_as_any_option_leave_the_default_open(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, {"eval_math.py": program(), "eval.sh": script(command)}) == []


def test_runs_that_disagree_decide_nothing(tmp_path: Path) -> None:
    text = script('if [ "$1" = greedy ]; then', "    python eval_math.py --temp 0", "else", "    python eval_math.py --temp 0.7", "fi")
    assert check(tmp_path, {"eval_math.py": program(), "eval.sh": text}) == []


def test_a_flag_that_abbreviates_an_option_is_not_taken_for_another(tmp_path: Path) -> None:
    assert check(tmp_path, {"eval_math.py": program(), "eval.sh": script("python eval_math.py --te 0.7")}) == []


ENGINE_PROGRAM = (
    "import argparse\n"
    "from vllm import LLM, EngineArgs\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    "parser = EngineArgs.add_cli_args(parser)\n"
    "parser.add_argument('--temp', type=float, default=0.7)\n"
    "args = parser.parse_args()\n"
    "args.return_sampling_mask = True\n"
    "llm = LLM(**vars(args))\n"
)


def test_a_vllm_flag_the_parser_does_not_show_leaves_only_its_option_open(tmp_path: Path) -> None:
    shown = check(tmp_path / "a", {"serve.py": ENGINE_PROGRAM, "run.sh": script("python serve.py --model m --max-model-len 2048")})
    given = check(tmp_path / "b", {"serve.py": ENGINE_PROGRAM, "run.sh": script("python serve.py --logprobs-mode processed_logprobs")})
    assert (shown, given) == ([("serve.py", 8, "RPL003")], [])
