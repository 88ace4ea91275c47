# Imitates vllm-project/speculators tests/e2e/utils.py: `run_vllm_engine` sends the LLM and SamplingParams
# keywords to run_vllm.py as JSON in argv; the user's edit turns replay on and adds a top_k to the greedy request.
import json
import os
import subprocess
import sys
from pathlib import Path


def run_vllm_engine(
    model_path: str,
    tmp_path: Path,
    prompts: list[list[dict[str, str]]],
    max_model_len: int = 1024,
    gpu_memory_utilization: float = 0.8,
    enforce_eager: bool = False,
    speculative_config: dict | None = None,
    max_tokens: int = 50,
    ignore_eos: bool = True,
    timeout: float | None = None,
):
    VLLM_PYTHON = os.environ.get("VLLM_PYTHON", sys.executable)

    run_vllm_file = str(Path(__file__).with_name("run_vllm.py"))
    results_file = str(tmp_path / "results.json")

    sampling_params_dict = {
        "temperature": 0,  # expect: RPL101
        "top_k": 20,
        "top_p": 0.9,
        "max_tokens": max_tokens,
        "ignore_eos": ignore_eos,
    }

    llm_args_dict = {
        "model": model_path,
        "max_model_len": max_model_len,
        "gpu_memory_utilization": gpu_memory_utilization,
        "enforce_eager": enforce_eager,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
    if speculative_config is not None:
        llm_args_dict["speculative_config"] = speculative_config

    command = [
        VLLM_PYTHON,
        run_vllm_file,
        "--sampling-params-args",
        json.dumps(sampling_params_dict),
        "--llm-args",
        json.dumps(llm_args_dict),
        "--prompts",
        json.dumps(prompts),
        "--results-file",
        results_file,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    assert result.returncode == 0, f"run_vllm.py failed:\n{result.stderr}"
    with open(results_file, encoding="utf-8") as f:
        return json.load(f)
