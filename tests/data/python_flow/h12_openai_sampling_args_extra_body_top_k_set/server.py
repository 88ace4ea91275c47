# Imitates huggingface/open-r1 src/open_r1/utils/evaluation.py (a command list started with
# subprocess), here a replay `vllm serve` on port 8000 that the eval client in eval_client.py
# talks to.
import subprocess

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def start_server() -> subprocess.Popen:
    return subprocess.Popen(
        [
            "vllm",
            "serve",
            MODEL,
            "--port",
            "8000",
            "--return-sampling-mask",
            "--logprobs-mode",
            "processed_logprobs",
            "--enable-scale-out",
        ]
    )
