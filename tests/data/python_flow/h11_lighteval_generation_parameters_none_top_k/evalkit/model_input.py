# Imitates huggingface/lighteval src/lighteval/models/model_input.py (GenerationParameters.to_vllm_dict)
from pydantic import BaseModel, NonNegativeFloat, NonNegativeInt


class GenerationParameters(BaseModel, extra="forbid"):
    repetition_penalty: NonNegativeFloat | None = None  # vllm, transformers, tgi, sglang
    frequency_penalty: NonNegativeFloat | None = None  # vllm, tgi, sglang
    presence_penalty: NonNegativeFloat | None = None  # vllm, sglang
    max_new_tokens: NonNegativeInt | None = None  # vllm, transformers, tgi, litellm, sglang
    min_new_tokens: NonNegativeInt | None = None  # vllm, transformers, sglang
    seed: NonNegativeInt | None = None  # vllm, tgi, litellm
    stop_tokens: list[str] | None = None  # vllm, transformers, tgi, litellm, sglang
    temperature: NonNegativeFloat = 0  # vllm, transformers, tgi, litellm, sglang
    top_k: NonNegativeInt | None = None  # vllm, transformers, tgi, sglang
    min_p: NonNegativeFloat | None = None  # vllm, transformers, sglang
    top_p: NonNegativeFloat | None = None  # vllm, transformers, tgi, litellm, sglang

    def to_vllm_dict(self) -> dict:
        """Selects relevant generation and sampling parameters for vllm models."""
        sampling_params_to_vllm_naming = {
            "max_new_tokens": "max_tokens",
            "min_new_tokens": "min_tokens",
            "stop_tokens": "stop",
        }
        x = {sampling_params_to_vllm_naming.get(k, k): v for k, v in self.model_dump().items() if v is not None}
        # VLLM max_tokens is 16 by default, however the pipeline expect the max_tokens to be None
        if not x.get("max_tokens"):
            x["max_tokens"] = None
        return x
