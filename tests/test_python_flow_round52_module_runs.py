"""What held-out round 52's weak-to-strong-reasoning cases (tests/data/python_flow/h52_w2s_*)
taught: a script's `python -m src.inference ...` runs `src/inference.py` when `src/` has no
`__init__.py` (a namespace package imported from the folder the script is run from), so the
script's flags, not the argparse defaults, are what the program gets; and a class held in a
package's table (`Models = {'vllm': VLLMModel}` in `src/model/__init__.py`) is made where a module
importing the table calls an entry (`Models[args.model_type](args)`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PROGRAM = """import argparse

from vllm import LLM, SamplingParams

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--top_k", type=int, default=20)
    args = parser.parse_args()
    llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    print(llm.generate(["q"], SamplingParams(temperature=args.temperature, top_k=args.top_k)))
"""
TEMPERATURE_DEFAULT_LINE = 7


def _script(command: str) -> str:
    return f"MODEL=llama\nCUDA_VISIBLE_DEVICES=0 python -u {command} --model ${{MODEL}}\n"


def test_a_namespace_package_module_run_greedy_is_reported_on_the_script(tmp_path: Path) -> None:
    files = {"run.sh": _script("-m src.inference --temperature 0"), "src/inference.py": PROGRAM}
    assert check(tmp_path, files) == [("run.sh", 2, "RPL101")]


def test_a_namespace_package_module_run_that_samples_is_clean(tmp_path: Path) -> None:
    # the argparse default 0.0 is not what runs: the script gives 1.0
    files = {"run.sh": _script("-m src.inference --temperature 1.0"), "src/inference.py": PROGRAM}
    assert check(tmp_path, files) == []


def test_a_script_below_the_folder_it_is_run_from_runs_the_module(tmp_path: Path) -> None:
    # `bash scripts/run.sh` from the repository: `src/` is found from the folder above the script
    files = {"scripts/run.sh": _script("-m src.inference --temperature 1.0"), "src/inference.py": PROGRAM}
    assert check(tmp_path, files) == []


def test_a_run_of_another_module_leaves_the_default(tmp_path: Path) -> None:
    # `tools.inference` is not `src/inference.py`: no run gives it a flag, its default 0.0 runs
    files = {"run.sh": _script("-m tools.inference --temperature 1.0"), "src/inference.py": PROGRAM}
    assert check(tmp_path, files) == [("inference.py", TEMPERATURE_DEFAULT_LINE, "RPL101")]


MODEL = """from vllm import LLM, SamplingParams


class VLLMModel:
    def __init__(self, args):
        self.llm = LLM(args.model_dir, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.params = SamplingParams(temperature=args.temperature, top_k=args.top_k)

    def generate(self, prompts):
        return self.llm.generate(prompts, self.params)
"""
MAIN = """import argparse

from .model import Models

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", type=str, default="./")
    parser.add_argument("--model_type", type=str, default="vllm")
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top_k", type=int, default={top_k})
    args = parser.parse_args()
    model = {made}
    print(model.generate(["q"]))
"""
TOP_K_LINE = 10


def _tabled(table: str, top_k: str = "-1", made: str = "Models[args.model_type](args)") -> dict[str, str]:
    return {
        "src/model/__init__.py": f"from .vllm_model import VLLMModel\nfrom .hf_model import HFModel\n\nModels = {table}\n",
        "src/model/vllm_model.py": MODEL,
        "src/model/hf_model.py": "class HFModel:\n    def __init__(self, args):\n        self.args = args\n",
        "src/inference.py": MAIN.format(top_k=top_k, made=made),
    }


def test_a_class_made_through_a_package_table_reads_the_programs_arguments(tmp_path: Path) -> None:
    assert check(tmp_path, _tabled("{'vllm': VLLMModel}")) == [("inference.py", TOP_K_LINE, "RPL102")]


def test_a_class_made_through_a_package_table_with_a_bounded_top_k_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _tabled("{'vllm': VLLMModel}", top_k="20")) == []


def test_the_default_key_of_a_table_of_several_classes_picks_the_engines(tmp_path: Path) -> None:
    # `--model_type` defaults to "vllm" and no script gives another
    assert check(tmp_path, _tabled("{'vllm': VLLMModel, 'hf': HFModel}")) == [("inference.py", TOP_K_LINE, "RPL102")]


@pytest.mark.parametrize("key", ["'hf'", "args.model_type"])
def test_a_table_entry_another_key_picks_does_not_make_the_engines_class(tmp_path: Path, key: str) -> None:
    files = _tabled("{'vllm': VLLMModel, 'hf': HFModel}", made=f"Models[{key}](args)")
    files["run.sh"] = "python -m src.inference --model_type hf\n"  # (the second: the script picks `hf`)
    assert check(tmp_path, files) == []
