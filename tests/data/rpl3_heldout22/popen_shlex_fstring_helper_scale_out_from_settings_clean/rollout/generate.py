import requests

from launch.settings import PORT

URL = f"http://localhost:{PORT}/inference/v1/generate"


def generate(token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 512},
    }
    return requests.post(URL, json=body, timeout=600).json()
