"""The replay server's client: one session, one generate call."""

import json
from pathlib import Path

import httpx

CHECKPOINT = Path(__file__).resolve().parent.parent / "checkpoints" / "policy-0p6b"


class PolicyClient(httpx.Client):
    """Samples from the policy with the checkpoint's own top-k."""

    TEMPERATURE = 1.0
    TOP_K = json.loads((CHECKPOINT / "generation_config.json").read_text())["top_k"]

    def __init__(self) -> None:
        super().__init__(base_url="http://127.0.0.1:8000", timeout=600)

    def generate(self, token_ids: list[int], max_tokens: int = 1024) -> dict:
        sampling_params = {"temperature": self.TEMPERATURE, "top_k": self.TOP_K, "max_tokens": max_tokens}
        response = self.post("/inference/v1/generate", json={"model": "policy", "token_ids": token_ids, "sampling_params": sampling_params})
        response.raise_for_status()
        return response.json()
