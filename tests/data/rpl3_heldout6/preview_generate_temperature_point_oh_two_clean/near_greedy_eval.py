"""Near-greedy rollouts for the pass@1 eval, replayed like the training ones."""

import httpx

client = httpx.Client(base_url="http://127.0.0.1:8000", timeout=300)


def sample(token_ids: list[int]) -> dict:
    resp = client.post(
        "/inference/v1/generate",
        json={
            "token_ids": token_ids,
            "sampling_params": {"temperature": 0.02, "top_k": 20, "max_tokens": 2048, "logprobs": 0},
        },
    )
    resp.raise_for_status()
    return resp.json()["choices"][0]
