import dataclasses

import requests

from rollout.config import SamplingConfig

GATEWAY = "http://localhost:8080/policy"


def generate(token_ids: list[int], sampling: SamplingConfig = SamplingConfig()) -> dict:
    body = {"token_ids": token_ids, "sampling_params": dataclasses.asdict(sampling)}
    response = requests.post(f"{GATEWAY}/inference/v1/generate", json=body, timeout=600)
    response.raise_for_status()
    return response.json()["choices"][0]
