import requests


def rollout(token_ids):
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 20}}
    return requests.post("http://localhost:8001/inference/v1/generate", json=body).json()
