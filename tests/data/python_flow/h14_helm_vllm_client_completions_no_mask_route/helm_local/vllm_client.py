# Imitates stanford-crfm/helm src/helm/clients/vllm_client.py (VLLMClient: an OpenAI client on the server's /v1, _make_raw_request, completions.create)
from typing import Any, Dict, List

from openai import OpenAI


class VLLMClient:
    def __init__(self, base_url: str = "http://localhost:8000/v1", api_key: str = "EMPTY"):
        self.client = OpenAI(api_key=api_key, base_url=base_url)

    def _make_raw_request(self, model: str, prompt: str, temperature: float, max_tokens: int, stop: List[str]) -> Dict[str, Any]:
        return {
            "model": model,
            "prompt": prompt,
            "temperature": temperature,
            "max_tokens": max_tokens,
            "top_p": 1.0,
            "n": 1,
            "stop": stop or None,
            "logprobs": 1,
            "echo": False,
            "extra_body": {"top_k": 40},
        }

    def make_request(self, model: str, prompt: str) -> str:
        raw_request = self._make_raw_request(model, prompt, temperature=0.7, max_tokens=256, stop=["\n\n"])
        response = self.client.completions.create(**raw_request)  # expect: RPL301
        return response.choices[0].text
