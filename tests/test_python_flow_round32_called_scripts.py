"""What held-out round 32 (Qwen2.5-Math's `evaluation/sh/eval.sh`) made the value flow follow: a
script that runs a program with its own positional parameters (`ENGINE_TYPE=$4`, then
`python3 -u math_eval.py --engine_type ${ENGINE_TYPE} --temperature 0`), run by another script of the
tree with its words (`bash sh/eval.sh $PROMPT_TYPE $MODEL_NAME_OR_PATH outputs vllm`). As bash runs
it, the caller's words are the script's `$1`...: the program's option comes from the caller, and
the branch it picks is read. A script nothing of the tree runs, or one that something else may run
with other words (a Makefile, a Python program), keeps its arguments open."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.readers.shell.program_runs import program_words
from replaylint.source import ExtractContext, SourceFile
from tests.test_python_flow_round10 import check, run

PROGRAM = (
    "import argparse\n"
    "\n"
    "import sglang as sgl\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def parse_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model_name_or_path', default='m', type=str)\n"
    "    parser.add_argument('--output_dir', default='./output', type=str)\n"
    "    parser.add_argument('--temperature', default=0, type=float)\n"
    "    parser.add_argument('--engine_type', default='sglang', type=str, choices=['sglang', 'vllm'])\n"
    "    return parser.parse_args()\n"
    "\n"
    "\n"
    "def setup(args):\n"
    "    if args.engine_type == 'sglang':\n"
    "        llm = sgl.Engine(model_path=args.model_name_or_path)\n"
    "    else:\n"
    "        llm = LLM(model=args.model_name_or_path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    main(llm, args)\n"
    "\n"
    "\n"
    "def main(llm, args):\n"
    "    if args.engine_type == 'sglang':\n"
    "        llm.generate(['q'], sampling_params={'temperature': args.temperature})\n"
    "    else:\n"
    "        llm.generate(['q'], SamplingParams(temperature=args.temperature, {top_k}max_tokens=16))\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    setup(parse_args())\n"
)
REQUEST_LINE = 28


def program(top_k: str = "top_k=20, ") -> str:
    return PROGRAM.replace("{top_k}", top_k)


def eval_sh(temperature: str = "0", engine: str = "${ENGINE_TYPE}") -> str:
    return (
        "set -ex\n"
        "\n"
        "PROMPT_TYPE=$1\n"
        "MODEL_NAME_OR_PATH=$2\n"
        "OUTPUT_DIR=${MODEL_NAME_OR_PATH}/$3\n"
        "ENGINE_TYPE=$4\n"
        "\n"
        "TOKENIZERS_PARALLELISM=false \\\n"
        "python3 -u math_eval.py \\\n"
        "    --model_name_or_path ${MODEL_NAME_OR_PATH} \\\n"
        "    --output_dir ${OUTPUT_DIR} \\\n"
        f"    --engine_type {engine} \\\n"
        f"    --temperature {temperature}\n"
    )


TEMPERATURE_LINE = 13


def runner(engine: str = "vllm") -> str:
    return (
        'PROMPT_TYPE="qwen25-math-cot"\n'
        'export CUDA_VISIBLE_DEVICES="0"\n'
        'MODEL_NAME_OR_PATH="Qwen/Qwen2.5-Math-1.5B-Instruct"\n'
        f"bash sh/eval.sh $PROMPT_TYPE $MODEL_NAME_OR_PATH outputs {engine}\n"
    )


def tree(**scripts: str) -> dict[str, str]:
    return {"evaluation/math_eval.py": program(), "evaluation/sh/eval.sh": eval_sh(), **scripts}


def test_the_caller_s_engine_word_takes_the_vllm_branch_and_its_greedy_request_is_reported(tmp_path: Path) -> None:
    found = check(tmp_path, tree(**{"evaluation/sh/run_eval_qwen25_math.sh": runner()}))
    assert found == [("eval.sh", TEMPERATURE_LINE, "RPL101")]
    assert "runs as eval.sh:13 runs it, with `--temperature 0`" in run(tmp_path)[0]["message"]


def test_the_caller_s_sglang_word_leaves_the_vllm_branch_untaken(tmp_path: Path) -> None:
    assert check(tmp_path, tree(**{"evaluation/sh/run_eval_qwen25_math.sh": runner("sglang")})) == []


def test_a_sampled_request_with_top_k_through_the_caller_stays_clean(tmp_path: Path) -> None:
    files = {**tree(**{"evaluation/sh/run_eval_qwen25_math.sh": runner()}), "evaluation/sh/eval.sh": eval_sh("0.6")}
    assert check(tmp_path, files) == []


def test_a_sampled_request_without_top_k_through_the_caller_is_reported_in_the_program(tmp_path: Path) -> None:
    files = {
        "evaluation/math_eval.py": program(top_k=""),
        "evaluation/sh/eval.sh": eval_sh("0.6"),
        "evaluation/sh/run_eval_qwen25_math.sh": runner(),
    }
    assert check(tmp_path, files) == [("math_eval.py", REQUEST_LINE, "RPL102")]


def test_a_script_no_script_runs_keeps_its_arguments_open(tmp_path: Path) -> None:
    assert check(tmp_path, tree()) == []


@pytest.mark.parametrize(
    "other",
    [
        ("evaluation/Makefile", "eval:\n\tbash sh/eval.sh cot m out $(ENGINE)\n"),
        ("evaluation/launch.py", "import subprocess\nsubprocess.run(['bash', 'sh/eval.sh', 'cot', 'm', 'out', 'sglang'])\n"),
        ("evaluation/sh/run_other.sh", "bash sh/eval.sh cot m out sglang\n"),
    ],
    ids=["makefile", "python-program", "caller-that-disagrees"],
)
def test_a_script_something_else_runs_with_other_words_stays_open(tmp_path: Path, other: tuple[str, str]) -> None:
    files = {**tree(**{"evaluation/sh/run_eval_qwen25_math.sh": runner()}), other[0]: other[1]}
    assert check(tmp_path, files) == []


def test_a_comment_of_the_program_naming_the_script_is_no_run(tmp_path: Path) -> None:
    files = tree(**{"evaluation/sh/run_eval_qwen25_math.sh": runner()})
    files["evaluation/math_eval.py"] = "# run with: bash sh/eval.sh TYPE MODEL OUT vllm\n" + program()
    assert check(tmp_path, files) == [("eval.sh", TEMPERATURE_LINE, "RPL101")]


def test_the_caller_s_words_reach_through_a_script_that_forwards_them(tmp_path: Path) -> None:
    files = tree(
        **{
            "evaluation/sh/run_model.sh": 'bash "$(dirname "$0")/eval.sh" cot "$1" outputs "$2"\n',
            "evaluation/sh/run_all.sh": "for model in a b; do\n  bash sh/run_model.sh $model vllm\ndone\n",
        }
    )
    assert check(tmp_path, files) == [("eval.sh", TEMPERATURE_LINE, "RPL101")]


def test_a_default_of_the_script_s_argument_is_taken_where_the_caller_gives_none(tmp_path: Path) -> None:
    files = {
        **tree(**{"evaluation/sh/run.sh": "bash sh/eval.sh cot m out\n"}),
        "evaluation/sh/eval.sh": eval_sh(engine="${4:-vllm}"),
    }
    assert check(tmp_path, files) == [("eval.sh", TEMPERATURE_LINE, "RPL101")]


def test_the_reader_lists_the_runs_of_a_script_file_a_script_runs(tmp_path: Path) -> None:
    files = tree(**{"evaluation/sh/run_eval_qwen25_math.sh": runner()})
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    caller = tmp_path / "evaluation/sh/run_eval_qwen25_math.sh"
    context = ExtractContext(read_text=lambda path: Path(path).read_text() if Path(path).is_file() else None, root=str(tmp_path))
    (found,) = program_words(SourceFile(str(caller), caller.read_text()), context) or []
    assert found.file == str(tmp_path / "evaluation/sh/eval.sh")
    assert found.files == (str(caller), found.file)
    words = {text: (span.path.rsplit("/", 1)[-1], span.start_line) for text, span in found.words if span is not None}
    assert words["vllm"] == ("eval.sh", 12)  # `${ENGINE_TYPE}`, the word as eval.sh writes it
    assert words["0"] == ("eval.sh", TEMPERATURE_LINE)
