# Imitates sierra-research/tau-bench tau_bench/model_utils/model/vllm_completion.py (VLLMCompletionModel)
import os

from transformers import AutoTokenizer

from tau_bench.model_utils.model.vllm_utils import generate_request


class VLLMCompletionModel:
    def __init__(
        self,
        model: str,
        base_url: str,
        endpoint: str = "inference/v1/generate",
        temperature: float = 0.0,
    ) -> None:
        self.model = model
        self.base_url = base_url
        self.url = os.path.join(base_url, endpoint)
        self.temperature = temperature
        self.tokenizer = AutoTokenizer.from_pretrained(model)

    def generate_from_prompt(self, prompt: str, temperature: float = 0.0) -> dict:
        return generate_request(url=self.url, prompt_token_ids=self.tokenizer.encode(prompt), temperature=temperature)

    def parse_force_from_prompt(self, prompt: str, temperature: float | None = None) -> dict:
        if temperature is None:
            temperature = self.temperature
        return generate_request(url=self.url, prompt_token_ids=self.tokenizer.encode(prompt), force_json=True, temperature=temperature)
