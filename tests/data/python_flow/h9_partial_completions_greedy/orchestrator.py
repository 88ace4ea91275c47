# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/orchestrator/client.py (a rollout client of the vLLM server the script starts)
import functools
import subprocess

import requests
from openai import OpenAI

MODEL = "Qwen/Qwen3-0.6B"

server = subprocess.Popen(
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

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")

# a quick completion before the run, to see that the server answers sensibly
complete = functools.partial(
    client.completions.create,
    model=MODEL,
    max_tokens=32,
    temperature=0.0,  # expect: RPL101
    extra_body={"top_k": 20},
)


def sanity_check() -> str:
    return complete(prompt="2 + 2 =").choices[0].text


def rollout(prompt_ids: list[int]) -> dict:
    body = {
        "token_ids": prompt_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 1024},
    }
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=600).json()


if __name__ == "__main__":
    print(sanity_check())
    print(rollout([151644, 872, 198]))
