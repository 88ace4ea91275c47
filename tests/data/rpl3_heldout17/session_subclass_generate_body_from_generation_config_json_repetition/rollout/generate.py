import json
from pathlib import Path

from rollout.session import ReplaySession

GENERATION_CONFIG = Path(__file__).resolve().parent.parent / "assets" / "generation_config.json"
SAMPLING_KEYS = ("temperature", "top_p", "top_k", "repetition_penalty")


def sampling_from_generation_config() -> dict:
    config = json.loads(GENERATION_CONFIG.read_text())
    return {key: config[key] for key in SAMPLING_KEYS if key in config}


def generate(token_ids: list[int], max_tokens: int = 512) -> dict:
    session = ReplaySession("http://localhost:8000")
    body = {
        "token_ids": token_ids,
        "sampling_params": {**sampling_from_generation_config(), "max_tokens": max_tokens},
    }
    response = session.post("/inference/v1/generate", json=body)
    response.raise_for_status()
    return response.json()
