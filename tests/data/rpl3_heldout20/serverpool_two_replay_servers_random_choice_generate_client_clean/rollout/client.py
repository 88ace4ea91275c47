"""Send each rollout to one of the replay servers of launcher/pool.py, picked at random."""

import random

import httpx

SERVERS = ["http://127.0.0.1:8000", "http://127.0.0.1:8001"]


def generate(token_ids: list[int]) -> dict:
    base_url = random.choice(SERVERS)
    body = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 1024},
    }
    response = httpx.post(f"{base_url}/inference/v1/generate", json=body, timeout=300)
    response.raise_for_status()
    return response.json()
