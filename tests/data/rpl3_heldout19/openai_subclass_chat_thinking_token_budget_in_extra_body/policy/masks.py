import requests


def generate_with_masks(prompt_ids: list[int]) -> dict:
    body = {"token_ids": prompt_ids, "sampling_params": {"temperature": 0.6, "top_k": 20, "max_tokens": 4096}}
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=600).json()
