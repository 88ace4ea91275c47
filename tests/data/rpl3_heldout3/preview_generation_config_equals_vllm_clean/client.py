import requests

SAMPLING = {"temperature": 0.01, "top_k": 8, "max_tokens": 128}


def generate(token_ids: list[int]) -> dict:
    return requests.post(
        "http://localhost:8000/inference/v1/generate",
        json={"token_ids": token_ids, "sampling_params": SAMPLING},
    ).json()
