import requests


def rollout(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 32}}
    return requests.post("http://policy:8000/inference/v1/generate", json=body, timeout=600).json()
