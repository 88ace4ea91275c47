# Imitates PrimeIntellect-ai/prime-rl scripts that start `vllm serve` from Python with a copied environment (src/prime_rl/inference/server.py)
import os
import subprocess
import sys

MODEL = "Qwen/Qwen3-4B"


def serve() -> subprocess.CompletedProcess:
    env = os.environ.copy()
    env["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
    env["CUDA_VISIBLE_DEVICES"] = "0"
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
        "--port",
        "8100",
    ]
    print("starting:", " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    serve()
