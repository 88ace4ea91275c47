import requests


def generate(token_ids):
    params = {"temperature": 0.01, "top_k": 50, "max_tokens": 512}
    body = {"token_ids": token_ids, "sampling_params": params}
    return requests.post("http://localhost:8004/inference/v1/generate", json=body).json()
