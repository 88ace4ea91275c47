# Imitates stanford-crfm/helm src/helm/clients/vllm_client.py (a client class with _make_raw_request), sending token ids to the scale-out route
from typing import Any, Dict, List

import requests


class VLLMTokenClient:
    def __init__(self, base_url: str = "http://localhost:8000"):
        self.base_url = base_url
        self.session = requests.Session()

    def _make_raw_request(self, token_ids: List[int], temperature: float, max_tokens: int) -> Dict[str, Any]:
        return {
            "token_ids": token_ids,
            "sampling_params": {
                "temperature": temperature,
                "top_k": 40,
                "top_p": 1.0,
                "max_tokens": max_tokens,
                "logprobs": 1,
            },
        }

    def make_request(self, token_ids: List[int]) -> Dict[str, Any]:
        raw_request = self._make_raw_request(token_ids, temperature=0.7, max_tokens=256)
        response = self.session.post(f"{self.base_url}/inference/v1/generate", json=raw_request, timeout=600)
        response.raise_for_status()
        return response.json()
