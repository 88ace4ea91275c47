import requests

URL = "http://localhost:8000/inference/v1/generate"


def generate(token_ids: list[int], max_tokens: int = 1024) -> dict:
    body = {
        "model": "policy",
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 151936,  # whole vocabulary: sample from the full policy
            "max_tokens": max_tokens,
        },
    }
    resp = requests.post(URL, json=body, timeout=300)
    resp.raise_for_status()
    return resp.json()
