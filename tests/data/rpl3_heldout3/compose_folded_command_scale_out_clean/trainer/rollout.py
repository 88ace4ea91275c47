import os

import httpx

URL = os.environ.get("ROLLOUT_URL", "http://rollout:8000/inference/v1/generate")


def rollout(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 40, "max_tokens": 2048}}
    return httpx.post(URL, json=body, timeout=None).json()
