import requests

GENERATE = "http://localhost:8000/inference/v1/generate"

SAMPLING = {
    "temperature": 1.0,
    "top_k": 50,
    "max_tokens": 1024,
    "repetition_penalty": 1.0,
}


def rollout(prompt_ids: list[int]) -> dict:
    return requests.post(GENERATE, json={"token_ids": prompt_ids, "sampling_params": SAMPLING}, timeout=300).json()
