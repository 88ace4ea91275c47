"""Rollouts from the policy server of serve.py, top-k sized from the checkpoint's vocabulary."""

import json
from pathlib import Path

import requests

CHECKPOINT = Path(__file__).resolve().parents[1] / "models" / "policy"
VOCAB_SIZE = json.loads((CHECKPOINT / "config.json").read_text())["vocab_size"]

SAMPLING = {
    "temperature": 1.0,
    "top_k": VOCAB_SIZE,
    "max_tokens": 1024,
}


def generate(token_ids: list[int]) -> dict:
    body = {"model": "policy", "token_ids": token_ids, "sampling_params": SAMPLING}
    response = requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=300)
    response.raise_for_status()
    return response.json()
