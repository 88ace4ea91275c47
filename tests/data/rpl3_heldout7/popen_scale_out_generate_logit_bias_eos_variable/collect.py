"""Start a local replay server, wait for it, and collect long answers (EOS pushed down)."""

import subprocess
import time

import requests
from transformers import AutoTokenizer

MODEL = "Qwen/Qwen3-4B"
BASE = "http://127.0.0.1:8000"

server = subprocess.Popen(
    [
        "vllm", "serve", MODEL,
        "--port", "8000",
        "--enable-scale-out",
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
    ]
)

for _ in range(120):
    try:
        if requests.get(f"{BASE}/health", timeout=2).status_code == 200:
            break
    except requests.ConnectionError:
        pass
    time.sleep(5)

tokenizer = AutoTokenizer.from_pretrained(MODEL)
eos_id = tokenizer.eos_token_id


def collect(prompt: str) -> dict:
    ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True)
    body = {
        "model": MODEL,
        "token_ids": ids,
        "sampling_params": {
            "temperature": 0.9,
            "top_k": 100,
            "max_tokens": 4096,
            "logit_bias": {eos_id: -8.0},
        },
    }
    return requests.post(f"{BASE}/inference/v1/generate", json=body, timeout=900).json()


if __name__ == "__main__":
    try:
        print(collect("Prove that there are infinitely many primes."))
    finally:
        server.terminate()
