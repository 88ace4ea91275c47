import requests

GENERATE = "http://localhost:8001/inference/v1/generate"


def rollout(token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 20,
            "max_tokens": 4096,
            "thinking_token_budget": 512,
        },
    }
    return requests.post(GENERATE, json=body, timeout=600).json()
