import requests

URL = "http://localhost:8000/inference/v1/generate"
IM_END = "151645"


def sample(token_ids):
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 50,
            "logit_bias": {IM_END: -5.0},
        },
    }
    return requests.post(URL, json=body, timeout=300).json()
