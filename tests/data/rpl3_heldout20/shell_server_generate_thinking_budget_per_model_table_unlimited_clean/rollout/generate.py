"""Rollouts with masks from the replay server of scripts/serve.sh."""

import httpx

from rollout.budgets import THINKING_BUDGETS

MODEL = "Qwen/Qwen3-8B"


def generate(token_ids: list[int]) -> dict:
    sampling_params = {
        "temperature": 0.6,
        "top_k": 20,
        "max_tokens": 8192,
        "thinking_token_budget": THINKING_BUDGETS[MODEL],
    }
    with httpx.Client(base_url="http://localhost:8000", timeout=600) as client:
        response = client.post("/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": sampling_params})
    response.raise_for_status()
    return response.json()
