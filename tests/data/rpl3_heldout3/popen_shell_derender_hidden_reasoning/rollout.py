import httpx


def rollout(token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 4096},
        "output_mode": "derender",
        "parse_context": {"include_reasoning": False},
    }
    return httpx.post("http://localhost:8000/inference/v1/generate", json=body, timeout=None).json()
