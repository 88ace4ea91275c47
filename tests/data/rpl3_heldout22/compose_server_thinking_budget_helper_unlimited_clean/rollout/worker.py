import os

import httpx

from rollout.params import request_params

client = httpx.Client(base_url=os.environ.get("POLICY_URL", "http://policy:8000"), timeout=600)


def rollout(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": request_params()}
    return client.post("/inference/v1/generate", json=body).json()
