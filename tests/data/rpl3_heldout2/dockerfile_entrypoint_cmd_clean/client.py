import requests


def generate(token_ids):
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 64, "max_tokens": 512}}
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=600).json()
