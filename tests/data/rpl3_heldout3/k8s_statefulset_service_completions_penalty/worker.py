import requests

ENDPOINT = "http://rollout-svc:9000/v1/completions"


def complete(prompt: str) -> dict:
    payload = {
        "model": "Qwen/Qwen3-8B",
        "prompt": prompt,
        "top_k": 20,
        "repetition_penalty": 1.05,
    }
    return requests.post(ENDPOINT, json=payload, timeout=300).json()
