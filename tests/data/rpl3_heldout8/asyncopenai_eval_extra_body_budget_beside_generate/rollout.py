"""Training rollouts with masks for replay."""

import requests

URL = "http://localhost:8000/inference/v1/generate"


def rollout(prompt_ids: list[int]) -> dict:
    body = {
        "token_ids": prompt_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 8192, "logprobs": 0},
    }
    resp = requests.post(URL, json=body, timeout=1800)
    resp.raise_for_status()
    return resp.json()
