# Imitates meta-llama/llama-stack llama_stack/providers/remote/inference/vllm/vllm.py (VLLMInferenceAdapter:
# an AsyncOpenAI client on config.url, _get_params merged into chat.completions.create).
from typing import Any

from openai import AsyncOpenAI

from .config import VLLMInferenceAdapterConfig


class VLLMInferenceAdapter:
    def __init__(self, config: VLLMInferenceAdapterConfig) -> None:
        self.config = config
        self.client = None

    async def initialize(self) -> None:
        self.client = AsyncOpenAI(base_url=self.config.url, api_key=self.config.api_token)

    def _get_params(self, model: str, messages: list[dict], sampling: dict) -> dict:
        options = dict(sampling)
        if "max_tokens" not in options:
            options["max_tokens"] = self.config.max_tokens
        input_dict: dict[str, Any] = {"messages": messages}
        return {
            "model": model,
            **input_dict,
            "stream": False,
            "extra_body": {"top_k": self.config.top_k},
            **options,
        }

    async def chat_completion(self, model: str, messages: list[dict], sampling: dict | None = None):
        params = self._get_params(model, messages, sampling or {"temperature": 0.7, "top_p": 0.9})
        r = await self.client.chat.completions.create(**params)  # expect: RPL301
        return r.choices[0].message.content
