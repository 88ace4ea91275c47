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

        # as smolagents does: the sampling values come from this call's kwargs, not self.kwargs
        sampling_params = SamplingParams(
            n=kwargs.get("n", 1),
            temperature=kwargs.get("temperature", 0.0),
            top_k=kwargs.get("top_k", 20),
            max_tokens=kwargs.get("max_tokens", max_tokens),
        )
        return self.model.generate(prompt, sampling_params=sampling_params)
