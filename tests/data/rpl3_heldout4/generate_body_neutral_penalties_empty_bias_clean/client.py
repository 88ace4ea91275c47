import requests

NEUTRAL = {"repetition_penalty": 1, "presence_penalty": 0.0, "frequency_penalty": 0, "logit_bias": {}}


def generate(token_ids):
    sampling_params = {"temperature": 1.0, "top_k": 100, **NEUTRAL}
    reply = requests.post(
        "http://localhost:8000/inference/v1/generate",
        json={"token_ids": token_ids, "sampling_params": sampling_params},
    )
    return reply.json()
