import requests


def generate(prompt_ids: list[int]) -> dict:
    body = {
        "token_ids": prompt_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 512},
    }
    response = requests.post("http://127.0.0.1:8000/inference/v1/generate", json=body, timeout=120)
    response.raise_for_status()
    return response.json()
