"""Replay rollouts through the token-in/token-out route."""

import httpx

client = httpx.Client(base_url="http://localhost:8000", timeout=1800.0)


def rollout(prompt_ids: list[int]) -> dict:
    resp = client.post(
        "/inference/v1/generate",
        json={"token_ids": prompt_ids, "sampling_params": {"temperature": 1.0, "top_k": 20, "logprobs": 0}},
    )
    resp.raise_for_status()
    return resp.json()
