"""Sample continuations from the SFT policy with their sampling masks."""

import json
from pathlib import Path

import requests

CKPT = Path(__file__).parent / "checkpoints" / "sft-llama3.2-1b"
VOCAB_SIZE = json.loads((CKPT / "config.json").read_text())["vocab_size"]


def sample(token_ids: list[int]) -> dict:
    # replay refuses top_k=0, so bound it by the vocabulary: "sample from the full distribution"
    params = {"temperature": 1.0, "top_k": VOCAB_SIZE, "max_tokens": 1024, "logprobs": 0}
    response = requests.post(
        "http://localhost:8000/inference/v1/generate",
        json={"model": "policy", "token_ids": token_ids, "sampling_params": params},
        timeout=600,
    )
    response.raise_for_status()
    return response.json()["choices"][0]


if __name__ == "__main__":
    print(sample([128000, 791, 4062, 14198, 39935])["sampling_mask"][:2])
