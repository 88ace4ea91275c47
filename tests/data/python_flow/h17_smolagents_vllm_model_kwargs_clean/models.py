# Imitates huggingface/smolagents src/smolagents/models.py (VLLMModel)
from typing import Any


class Model:
    def __init__(self, model_id: str | None = None, **kwargs):
        self.model_id = model_id
        self.kwargs = kwargs


class VLLMModel(Model):
    def __init__(self, model_id, model_kwargs: dict[str, Any] | None = None, **kwargs):
        from vllm import LLM

        self.model_kwargs = model_kwargs or {}
        super().__init__(model_id=model_id, **kwargs)
        self.model = LLM(model=model_id, **self.model_kwargs)

    def generate(self, prompt, max_tokens=1024, **kwargs):
        from vllm import SamplingParams

        completion_kwargs = {**self.kwargs, **kwargs}
        sampling_params = SamplingParams(
            n=completion_kwargs.get("n", 1),
            temperature=completion_kwargs.get("temperature", 0.0),
            top_k=completion_kwargs.get("top_k", 20),
            max_tokens=max_tokens,
        )
        return self.model.generate(prompt, sampling_params=sampling_params)
