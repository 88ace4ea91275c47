import requests


def greedy_validation(token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 0,
            "top_k": 1,
            "max_tokens": 1024,
        },
    }
    return requests.post("http://localhost:8000/inference/v1/generate", json=body).json()
