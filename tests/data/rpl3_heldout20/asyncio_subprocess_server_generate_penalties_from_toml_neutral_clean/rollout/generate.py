"""Send rollouts to the replay server of serve.py with the sampling of sampling.toml."""

import tomllib
from pathlib import Path

import requests

SAMPLING = tomllib.loads((Path(__file__).with_name("sampling.toml")).read_text())["sampling"]


def generate(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": dict(SAMPLING)}
    response = requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=300)
    response.raise_for_status()
    return response.json()
