# Imitates huggingface/trl trl/scripts/ helpers and NovaSky-AI/SkyRL's server launchers, which start
# a `vllm serve` child with `subprocess.Popen(env={**os.environ, ...})`.
import os
import subprocess
import sys


def launch(model, port=8000):
    cmd = [
        "vllm", "serve", model,
        "--port", str(port),
        "--enable-scale-out",
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
    ]
    env = {**os.environ, "VLLM_USE_V2_MODEL_RUNNER": "0", "CUDA_VISIBLE_DEVICES": "0"}  # expect: RPL206
    return subprocess.Popen(cmd, env=env, stdout=sys.stdout, stderr=sys.stderr)


if __name__ == "__main__":
    launch("Qwen/Qwen3-8B").wait()
