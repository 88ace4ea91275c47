import os
import subprocess
import sys


def launch_server() -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server",
        "--model", "Qwen/Qwen3-4B",
        "--port", os.environ.get("VLLM_PORT", "8000"),
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
        "--enable-scale-out",
        "--enable-trace-replay",
    ]
    return subprocess.Popen(cmd, env={**os.environ, "CUDA_VISIBLE_DEVICES": "0"})


if __name__ == "__main__":
    launch_server().wait()
