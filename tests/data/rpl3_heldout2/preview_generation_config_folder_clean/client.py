import requests


def generate(token_ids):
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 0.01, "top_k": 40}}
    return requests.post("http://localhost:8000/inference/v1/generate", json=body).json()
