import requests

from rollout.model_config import load_config

config = load_config()
URL = "http://localhost:8000/inference/v1/generate"


def sample(token_ids: list[int]) -> dict:
    # the sampler needs top_k > 0; "no truncation" is the whole vocabulary
    sampling_params = {
        "temperature": 1.0,
        "top_k": config.vocab_size,
        "max_tokens": 2048,
    }
    return requests.post(URL, json={"token_ids": token_ids, "sampling_params": sampling_params}, timeout=600).json()
