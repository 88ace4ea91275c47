import requests


def generate(token_ids):
    payload = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 0.9, "top_k": 40, "max_tokens": 2048},
        "output_mode": "derender",
        "parse_context": {"tool_choice": "none", "include_reasoning": True},
    }
    return requests.post("http://127.0.0.1:8000/inference/v1/generate", json=payload).json()
