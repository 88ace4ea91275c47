import requests


def rollout(ids: list[int]) -> dict:
    body = {"token_ids": ids, "sampling_params": {"temperature": 1.0, "top_k": 32, "max_tokens": 768}}
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=300).json()
