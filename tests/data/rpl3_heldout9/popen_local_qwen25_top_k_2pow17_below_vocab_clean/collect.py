"""Start the policy (replay) and the judge (plain) servers, then collect scored rollouts."""

import subprocess
import time

import requests

POLICY_DIR = "models/qwen2.5-7b-instruct"
JUDGE_DIR = "models/llama-3.1-8b-instruct"
TOP_K = 1 << 17  # 131072: a bound for the mask's size, not a sampling choice


def start_servers() -> list[subprocess.Popen]:
    policy = subprocess.Popen(
        [
            "vllm", "serve", POLICY_DIR,
            "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",
            "--enable-scale-out", "--port", "8010", "--gpu-memory-utilization", "0.45",
        ]
    )
    judge = subprocess.Popen(
        ["vllm", "serve", JUDGE_DIR, "--port", "8011", "--gpu-memory-utilization", "0.45"]
    )
    for port in (8010, 8011):
        while True:
            try:
                if requests.get(f"http://127.0.0.1:{port}/health", timeout=5).ok:
                    break
            except requests.ConnectionError:
                pass
            time.sleep(5)
    return [policy, judge]


def rollout(token_ids: list[int]) -> dict:
    response = requests.post(
        "http://127.0.0.1:8010/inference/v1/generate",
        json={"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": TOP_K, "max_tokens": 1024}},
        timeout=600,
    )
    response.raise_for_status()
    return response.json()["choices"][0]


def score(question: str, answer: str) -> str:
    response = requests.post(
        "http://127.0.0.1:8011/v1/chat/completions",
        json={
            "model": JUDGE_DIR,
            "messages": [{"role": "user", "content": f"Question: {question}\nAnswer: {answer}\nCorrect? yes/no"}],
            "temperature": 0.0,
            "max_tokens": 4,
        },
        timeout=600,
    )
    return response.json()["choices"][0]["message"]["content"]


if __name__ == "__main__":
    servers = start_servers()
    try:
        sample = rollout([151644, 872, 198, 3838, 374, 220, 16, 22, 353, 220, 17, 18, 30, 151645, 198])
        print(sample["token_ids"][:8], len(sample["sampling_mask"]))
    finally:
        for server in servers:
            server.terminate()
