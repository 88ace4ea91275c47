import requests

from rollout.defaults import BASE_SAMPLING

URL = "http://localhost:8000/inference/v1/generate"
REASONING = {"thinking_token_budget": 512}


def rollout(token_ids: list[int]) -> dict:
    body = {"model": "Qwen/Qwen3-0.6B", "token_ids": token_ids, "sampling_params": BASE_SAMPLING | REASONING}
    return requests.post(URL, json=body, timeout=300).json()
