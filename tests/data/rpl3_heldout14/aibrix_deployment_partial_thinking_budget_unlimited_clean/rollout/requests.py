"""The one request the rollout workers send: token ids in, tokens and masks out."""

import httpx

POLICY_URL = "http://qwen3-policy:8000"


def generate(
    client: httpx.Client,
    token_ids: list[int],
    *,
    max_tokens: int,
    top_k: int = 20,
    thinking_token_budget: int | None = None,
) -> dict:
    sampling_params = {"temperature": 1.0, "top_k": top_k, "max_tokens": max_tokens}
    if thinking_token_budget is not None:
        sampling_params["thinking_token_budget"] = thinking_token_budget
    body = {"model": "qwen3-policy", "token_ids": token_ids, "sampling_params": sampling_params}
    response = client.post(f"{POLICY_URL}/inference/v1/generate", json=body)
    response.raise_for_status()
    return response.json()
