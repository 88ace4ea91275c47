import requests

URL = "http://localhost:8000/inference/v1/generate"


def rollout(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 1024}}
    return requests.post(URL, json=body, timeout=600).json()
