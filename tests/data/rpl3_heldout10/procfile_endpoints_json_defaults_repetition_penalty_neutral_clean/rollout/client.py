import json
from pathlib import Path

import requests

from rollout.sampling_defaults import DEFAULT_SAMPLING

ENDPOINTS = json.loads(Path("config/endpoints.json").read_text())


def sample(token_ids: list[int], seed: int) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {**DEFAULT_SAMPLING, "seed": seed}}
    response = requests.post(f"{ENDPOINTS['policy']}/inference/v1/generate", json=body, timeout=ENDPOINTS["timeout_s"])
    response.raise_for_status()
    return response.json()


if __name__ == "__main__":
    print(sample([151644, 872, 198], seed=0))
