"""Starts a replay server and collects token-in/token-out rollouts for the learner."""

import subprocess
import time

import requests

MODEL = "Qwen/Qwen3-1.7B"
PORT = 8011
BASE = f"http://127.0.0.1:{PORT}"


def start_server() -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            "vllm", "serve", MODEL,
            "--port", str(PORT),
            "--enable-scale-out",
            "--return-sampling-mask",
            "--logprobs-mode", "processed_logprobs",
        ]
    )
    for _ in range(600):
        try:
            if requests.get(f"{BASE}/health", timeout=1).ok:
                return proc
        except requests.ConnectionError:
            pass
        time.sleep(1)
    proc.kill()
    raise RuntimeError("vLLM did not come up")


def sample(prompt_ids: list[int]) -> dict:
    resp = requests.post(
        f"{BASE}/inference/v1/generate",
        json={
            "token_ids": prompt_ids,
            "sampling_params": {"max_tokens": 1024, "temperature": 1.0, "top_k": 64, "logprobs": 0},
        },
        timeout=600,
    )
    resp.raise_for_status()
    choice = resp.json()["choices"][0]
    return {"token_ids": choice["token_ids"], "sampling_mask": choice["sampling_mask"]}


if __name__ == "__main__":
    import json
    import sys

    server = start_server()
    try:
        for line in sys.stdin:
            print(json.dumps(sample(json.loads(line)["prompt_ids"])))
    finally:
        server.terminate()
