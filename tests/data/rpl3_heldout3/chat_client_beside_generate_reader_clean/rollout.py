import httpx

client = httpx.Client(base_url="http://localhost:8000")


def rollout(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 20}}
    return client.post("/inference/v1/generate", json=body).json()
