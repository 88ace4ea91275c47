# Imitates mistralai/mistral-evals eval/run.py (evaluate a served model); the user's edit starts the
# `vllm serve` itself, with replay on, before the evaluation.
import subprocess

import fire

from eval.models import get_vllm_model_fn

SERVE_CMD = [
    "vllm",
    "serve",
    "mistralai/Pixtral-12B-2409",
    "--tokenizer-mode",
    "mistral",
    "--return-sampling-mask",  # expect: RPL301
    "--logprobs-mode",
    "processed_logprobs",
]


def evaluate(model_name: str, eval_name: str, url: str, output_dir: str = "out"):
    server = subprocess.Popen(SERVE_CMD)
    try:
        model_fn = get_vllm_model_fn(model_name, url)
        print(eval_name, output_dir, model_fn({"messages": [{"role": "user", "content": "hi"}]}))
    finally:
        server.terminate()


if __name__ == "__main__":
    fire.Fire(evaluate)
