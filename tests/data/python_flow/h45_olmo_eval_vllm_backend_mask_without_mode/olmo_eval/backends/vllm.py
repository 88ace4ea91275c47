# Imitates allenai/olmo-eval src/olmo_eval/backends/vllm.py (VLLMBackend, trimmed)
"""vLLM backend."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from olmo_eval.core import LMOutput, LMRequest, SamplingParams

from .base import Backend

if TYPE_CHECKING:
    from vllm import LLM


class VLLMBackend(Backend):
    """Backend using vLLM for high-throughput inference."""

    def __init__(
        self,
        model_name: str,
        tokenizer: str | None = None,
        attention_backend: str | None = None,
        **engine_kwargs,
    ) -> None:
        os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")

        try:
            from vllm import LLM
        except ImportError as e:
            raise ImportError("vllm is required for VLLMBackend") from e

        super().__init__(model_name)
        engine_kwargs.setdefault("gpu_memory_utilization", 0.7)

        if attention_backend:
            engine_kwargs.setdefault("attention_backend", attention_backend)

        if tokenizer:
            engine_kwargs.setdefault("tokenizer", tokenizer)

        self.llm: LLM = LLM(model=model_name, **engine_kwargs)

    def _build_sampling_params(self, params: SamplingParams) -> Any:
        """Convert SamplingParams to vLLM SamplingParams."""
        from vllm import SamplingParams as VLLMSamplingParams

        kwargs: dict[str, Any] = {
            "max_tokens": params.max_tokens,
            "n": params.num_samples,
        }

        if params.temperature > 0:
            kwargs["temperature"] = params.temperature
        if params.top_p is not None:
            kwargs["top_p"] = params.top_p
        if params.top_k is not None:
            kwargs["top_k"] = params.top_k
        if params.stop_sequences:
            kwargs["stop"] = list(params.stop_sequences)
        if params.logprobs is not None:
            kwargs["logprobs"] = params.logprobs

        return VLLMSamplingParams(**kwargs)

    def generate(
        self,
        requests: list[LMRequest],
        sampling_params: SamplingParams | None = None,
    ) -> list[list[LMOutput]]:
        params = self._default_sampling_params(sampling_params)
        vllm_params = self._build_sampling_params(params)

        prompts = [req.prompt for req in requests]
        outputs = self.llm.generate(prompts, vllm_params)

        return [
            [LMOutput(text=completion.text) for completion in output.outputs]
            for output in outputs
        ]

    def logprobs(self, requests: list[LMRequest]) -> list[list[LMOutput]]:
        from vllm import SamplingParams as VLLMSamplingParams

        vllm_params = VLLMSamplingParams(
            prompt_logprobs=5,
            max_tokens=1,
            temperature=0.0,
        )
        prompts = [req.prompt + (req.continuations or ("",))[0] for req in requests]
        outputs = self.llm.generate(prompts, vllm_params)
        return [[LMOutput(text="", logprobs=None, metadata={"prompt_logprobs": o.prompt_logprobs})] for o in outputs]
