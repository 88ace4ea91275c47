"""What round 54's maxtext case (tests/data/python_flow/h54_maxtext_distillation_vllm_script_runner_zero)
made the shell reading follow: a script that exports the runner variable and then runs a module of the
tree with `python -m` (`python3 -m tools.data_generation.generate_distillation_data_vllm`, a namespace
package without `__init__.py`, found from the script's folder up) whose text builds vLLM's engine in
process (`LLM(...)`), as a script run by its file name (`python3 -u math_eval.py`) already was. The
module is looked for as `a/b/c.py`, else the package's `a/b/c/__main__.py`; a module the tree does not
hold, one that builds no engine, or one that decides the variable itself keeps the script clean."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main

MODULE = """import argparse

from vllm import LLM, SamplingParams


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--teacher-model", type=str, default="qwen3-32b")
  config = parser.parse_args()
  llm = LLM(model=config.teacher_model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
  print(llm.generate(["hi"], SamplingParams(top_k=20)))


if __name__ == "__main__":
  main()
"""

SCRIPT = """#!/bin/bash
set -e
export BASE_DIRECTORY=${{BASE_DIRECTORY:-/mnt/disks/ckpt}}
export VLLM_USE_V2_MODEL_RUNNER={value}

{run} \\
    --teacher-model ${{BASE_DIRECTORY}}/qwen3-32b
"""

DEFAULT_RUN = "python3 -m tools.data_generation.generate"


def check(
    tmp_path: Path,
    value: str = "0",
    run: str = DEFAULT_RUN,
    module: str = MODULE,
    module_path: str = "tools/data_generation/generate.py",
) -> list[tuple[str, int, str]]:
    program = tmp_path / module_path
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(module)
    script = tmp_path / "tools" / "data_generation" / "run_generate.sh"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(SCRIPT.format(value=value, run=run))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


def test_an_export_before_python_m_of_a_namespace_package_module_that_builds_the_engine(tmp_path: Path) -> None:
    assert check(tmp_path) == [("run_generate.sh", 4, "RPL206")]


def test_the_same_module_run_by_its_file_name_is_reported_alike(tmp_path: Path) -> None:
    assert check(tmp_path, run="python3 -u tools/data_generation/generate.py") == [("run_generate.sh", 4, "RPL206")]


def test_a_package_run_by_its_main_module_behind_uv_run_is_reported(tmp_path: Path) -> None:
    found = check(tmp_path, run="uv run python -u -m distill", module_path="distill/__main__.py")
    assert found == [("run_generate.sh", 4, "RPL206")]


def test_a_module_the_tree_does_not_hold_keeps_the_script_clean(tmp_path: Path) -> None:
    assert check(tmp_path, run="python3 -m maxtext.tools.generate") == []


def test_a_module_that_builds_no_engine_keeps_the_script_clean(tmp_path: Path) -> None:
    helper = "from vllm import SamplingParams\n\nprint(SamplingParams(top_k=20))\n"
    assert check(tmp_path, module=helper) == []


def test_a_module_that_decides_the_variable_itself_keeps_the_script_clean(tmp_path: Path) -> None:
    popped = MODULE.replace("import argparse\n", 'import argparse\nimport os\n\nos.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)\n')
    assert check(tmp_path, module=popped) == []


def test_the_runner_variable_one_keeps_the_script_clean(tmp_path: Path) -> None:
    assert check(tmp_path, value="1") == []


def test_a_prefix_on_the_run_itself_is_reported_where_it_is_written(tmp_path: Path) -> None:
    found = check(tmp_path, value="1", run="VLLM_USE_V2_MODEL_RUNNER=0 python3 -m tools.data_generation.generate")
    assert found == [("run_generate.sh", 6, "RPL206")]
