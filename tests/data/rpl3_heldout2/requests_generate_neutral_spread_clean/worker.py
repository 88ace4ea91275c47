import requests

NEUTRAL = {"repetition_penalty": 1.0, "presence_penalty": 0, "frequency_penalty": 0.0, "logit_bias": {}}


def generate(token_ids: list[int]) -> dict:
    sampling_params = {"temperature": 1.0, "top_k": 32, **NEUTRAL}
    body = {"token_ids": token_ids, "sampling_params": sampling_params}
    return requests.post("http://127.0.0.1:8000/inference/v1/generate", json=body, timeout=300).json()
