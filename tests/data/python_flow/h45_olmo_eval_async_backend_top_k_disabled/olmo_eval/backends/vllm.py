# Imitates allenai/olmo-eval src/olmo_eval/backends/vllm.py (AsyncVLLMBackend, trimmed)
"""vLLM backend."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

from olmo_eval.core import LMOutput, LMRequest, SamplingParams


class AsyncVLLMBackend:
    """Async vLLM backend with continuous batching for streaming results."""

    def __init__(
        self,
        model_name: str,
        tokenizer: str | None = None,
        attention_backend: str | None = None,
        **engine_kwargs,
    ) -> None:
        os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")

        self.model_name = model_name
        engine_kwargs.setdefault("gpu_memory_utilization", 0.7)

        if attention_backend:
            engine_kwargs.setdefault("attention_backend", attention_backend)

        if tokenizer:
            engine_kwargs.setdefault("tokenizer", tokenizer)

        self._use_v1_engine = False
        try:
            from vllm.engine.arg_utils import AsyncEngineArgs
            from vllm.v1.engine.async_llm import AsyncLLM

            engine_args = AsyncEngineArgs(model=model_name, **engine_kwargs)
            self.engine: Any = AsyncLLM.from_engine_args(engine_args)
            self._use_v1_engine = True
        except ImportError:
            try:
                from vllm import AsyncEngineArgs
                from vllm.engine.async_llm_engine import AsyncLLMEngine

                engine_args = AsyncEngineArgs(model=model_name, **engine_kwargs)
                self.engine = AsyncLLMEngine.from_engine_args(engine_args)
            except ImportError as e:
                raise ImportError("vllm is required for AsyncVLLMBackend") from e

        self._request_counter = 0
        self._pending_requests: dict[str, tuple[str, Any]] = {}

    def _build_sampling_params(self, params: SamplingParams) -> Any:
        """Convert SamplingParams to vLLM SamplingParams."""
        from vllm import SamplingParams as VLLMSamplingParams

        return VLLMSamplingParams(
            max_tokens=params.max_tokens,
            n=params.num_samples,
            temperature=params.temperature if params.temperature > 0 else 0.0,
            top_p=params.top_p if params.top_p else 1.0,
            top_k=params.top_k if params.top_k else -1,
            stop=list(params.stop_sequences) if params.stop_sequences else None,
            logprobs=params.logprobs,
        )

    async def add_request(
        self,
        request_id: str,
        request: LMRequest,
        sampling_params: SamplingParams | None = None,
    ) -> None:
        if not request.prompt:
            raise ValueError("Empty prompts are not supported in --async-stream mode.")

        params = sampling_params or SamplingParams()
        vllm_params = self._build_sampling_params(params)
        self._pending_requests[request_id] = (request.prompt, vllm_params)

    async def stream_results(self) -> AsyncIterator[tuple[str, list[LMOutput]]]:
        import asyncio

        if not self._pending_requests:
            return

        async def process_single_request(request_id: str, prompt: str, params: Any):
            async for output in self.engine.generate(prompt, params, request_id):
                if output.finished:
                    return request_id, [LMOutput(text=c.text) for c in output.outputs]
            return None

        tasks = [
            asyncio.create_task(process_single_request(rid, prompt, params))
            for rid, (prompt, params) in self._pending_requests.items()
        ]
        self._pending_requests.clear()
        for fut in asyncio.as_completed(tasks):
            result = await fut
            if result is not None:
                yield result
