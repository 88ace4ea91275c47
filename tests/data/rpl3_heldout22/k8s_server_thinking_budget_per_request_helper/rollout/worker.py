import httpx

from rollout.params import request_params

client = httpx.Client(base_url="http://policy:8000", timeout=600)


def rollout(token_ids: list[int], difficulty: str) -> dict:
    body = {"token_ids": token_ids, "sampling_params": request_params(difficulty)}
    return client.post("/inference/v1/generate", json=body).json()
