# Imitates vllm-project/llm-compressor tests/e2e/vLLM/test_vllm.py (written from memory: the test saves the
# compressed model, then runs run_vllm.py in a separate Python with `json.dumps(llm_kwargs)` and the prompts on
# its command line); the user's edit checks the compressed model under replay.
import json
import subprocess
import sys
from pathlib import Path

RUN_FILE = Path(__file__).parent / "run_vllm.py"
PROMPTS = ["The capital of France is", "The president of the US is", "My name is"]


def run_vllm(save_dir: str):
    llm_kwargs = {
        "model": save_dir,
        "max_model_len": 2048,
        "return_sampling_mask": True,  # expect: RPL003
    }
    result = subprocess.run(
        [sys.executable, str(RUN_FILE), json.dumps(llm_kwargs), json.dumps(PROMPTS)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_vllm_replay():
    run_vllm("nm-testing/TinyLlama-1.1B-Chat-v1.0-W8A8")
