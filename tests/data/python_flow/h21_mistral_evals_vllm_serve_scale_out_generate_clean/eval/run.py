# Imitates mistralai/mistral-evals eval/run.py; the user's edit starts a replay `vllm serve` with the
# scale-out endpoints before the evaluation (clean).
import subprocess

import fire

from eval.models import get_vllm_model_fn


def serve_cmd(model, port=8000):
    cmd = ["vllm", "serve", model, "--port", str(port)]
    cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    cmd.append("--enable-scale-out")
    return cmd


def evaluate(model: str = "mistralai/Mistral-7B-Instruct-v0.3", url: str = "http://localhost:8000"):
    server = subprocess.Popen(serve_cmd(model))
    try:
        print(get_vllm_model_fn(url)([1, 2, 3]))
    finally:
        server.terminate()


if __name__ == "__main__":
    fire.Fire(evaluate)
