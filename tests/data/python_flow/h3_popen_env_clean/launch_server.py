# Imitates huggingface/trl trl/scripts/ helpers and NovaSky-AI/SkyRL's server launchers, which start
# a `vllm serve` child with `subprocess.Popen(env={**os.environ, ...})`.
import os
import subprocess


def launch(model, port=8000):
    cmd = [
        "vllm", "serve", model,
        "--port", str(port),
        "--tensor-parallel-size", "2",
        "--enable-scale-out",
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
    ]
    return subprocess.Popen(cmd, env={**os.environ, "CUDA_VISIBLE_DEVICES": "0,1"})


if __name__ == "__main__":
    launch("Qwen/Qwen3-8B").wait()
