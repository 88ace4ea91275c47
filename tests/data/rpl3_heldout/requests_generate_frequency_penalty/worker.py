import requests

PORT = 8002
GENERATE_URL = f"http://localhost:{PORT}/inference/v1/generate"


def generate(token_ids):
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 64,
            "max_tokens": 2048,
            "frequency_penalty": 0.3,
        },
    }
    return requests.post(GENERATE_URL, json=body, timeout=300).json()
