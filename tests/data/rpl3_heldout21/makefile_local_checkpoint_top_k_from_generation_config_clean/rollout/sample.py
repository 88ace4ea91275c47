import json
from pathlib import Path

import requests

CKPT = Path(__file__).resolve().parent.parent / "checkpoints" / "qwen3-0.6b"
GEN = json.loads((CKPT / "generation_config.json").read_text())
VOCAB = json.loads((CKPT / "config.json").read_text())["vocab_size"]


def sample(token_ids: list[int]) -> dict:
    params = {
        "temperature": GEN.get("temperature", 1.0),
        "top_k": GEN.get("top_k", VOCAB),
        "max_tokens": 2048,
    }
    body = {"token_ids": token_ids, "sampling_params": params}
    return requests.post("http://127.0.0.1:8000/inference/v1/generate", json=body, timeout=600).json()


if __name__ == "__main__":
    print(sample([151644, 872, 198])["choices"][0]["sampling_mask"])
