import requests

from rollout.config import GENERATE_DEFAULTS, POLICY_URL


def sample(token_ids: list[int], max_tokens: int = 512) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {**GENERATE_DEFAULTS, "max_tokens": max_tokens},
    }
    response = requests.post(f"{POLICY_URL}/inference/v1/generate", json=body, timeout=600)
    response.raise_for_status()
    return response.json()
