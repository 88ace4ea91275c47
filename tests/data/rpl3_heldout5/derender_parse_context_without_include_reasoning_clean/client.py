import requests

URL = "http://localhost:8000/inference/v1/generate"


def step(token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 0.7, "top_k": 20, "max_tokens": 2048},
        "output_mode": "derender",
        "parse_context": {"chat_template_kwargs": {"enable_thinking": True}},
    }
    return requests.post(URL, json=body, timeout=600).json()
