import requests

BASE = "http://localhost:8002"


def generate(prompt_token_ids: list[int]) -> dict:
    body = {
        "prompt_token_ids": prompt_token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 32, "max_tokens": 1024},
    }
    resp = requests.post(f"{BASE}/skyrl/v1/generate", json=body, timeout=300)
    resp.raise_for_status()
    return resp.json()
