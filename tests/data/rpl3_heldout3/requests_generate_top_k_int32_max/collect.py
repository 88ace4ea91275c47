import requests


def sample(token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 2**31 - 1,
            "max_tokens": 256,
        },
    }
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=600).json()
