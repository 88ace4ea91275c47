"""Collect rollouts with their sampling masks from the policy server in scripts/serve_policy.sh."""

import requests

POLICY_URL = "http://localhost:8000"


def sample(prompt_ids: list[int], max_tokens: int = 1024) -> dict:
    body = {
        "model": "Qwen/Qwen3-4B",
        "token_ids": prompt_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_p": 1.0,
            "top_k": 64,
            "max_tokens": max_tokens,
            "repetition_penalty": 1.0,
        },
    }
    resp = requests.post(f"{POLICY_URL}/inference/v1/generate", json=body, timeout=600)
    resp.raise_for_status()
    return resp.json()
