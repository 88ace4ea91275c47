# Imitates openai/simple-evals sampler/chat_completion_sampler.py (a sampler class), reading vLLM's scale-out route for the masks
import time
from typing import Any

import httpx
from transformers import AutoTokenizer


class GenerateSampler:
    """
    Sample from vLLM's /inference/v1/generate, keeping the sampling masks
    """

    def __init__(
        self,
        model: str,
        system_message: str | None = None,
        temperature: float = 0.5,
        top_k: int = 50,
        max_tokens: int = 1024,
        base_url: str = "http://localhost:8000",
    ):
        self.client = httpx.Client(base_url=base_url, timeout=600)
        self.tokenizer = AutoTokenizer.from_pretrained(model)
        self.model = model
        self.system_message = system_message
        self.temperature = temperature
        self.top_k = top_k
        self.max_tokens = max_tokens

    def _pack_message(self, role: str, content: Any):
        return {"role": str(role), "content": content}

    def __call__(self, message_list: list[dict]) -> tuple[str, list]:
        if self.system_message:
            message_list = [self._pack_message("system", self.system_message)] + message_list
        token_ids = self.tokenizer.apply_chat_template(message_list, add_generation_prompt=True)
        trial = 0
        while True:
            try:
                response = self.client.post(
                    "/inference/v1/generate",
                    json={
                        "model": self.model,
                        "token_ids": token_ids,
                        "sampling_params": {
                            "temperature": self.temperature,
                            "top_k": self.top_k,
                            "max_tokens": self.max_tokens,
                        },
                    },
                )
                choice = response.json()["choices"][0]
                return self.tokenizer.decode(choice["token_ids"]), choice["sampling_mask"]
            except Exception as e:
                exception_backoff = 2**trial  # expontial back off
                print(f"Exception so wait and retry {trial} after {exception_backoff} sec", e)
                time.sleep(exception_backoff)
                trial += 1
