# Imitates HazyResearch/intelligence-per-watt intelligence-per-watt/src/ipw/clients/vllm.py
# (the offline AsyncLLM client the `ipw` CLI registers as "vllm"), trimmed.
"""Offline vLLM client backed by AsyncLLM."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Mapping
from typing import Any

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.sampling_params import RequestOutputKind
from vllm.v1.engine.async_llm import AsyncLLM

from ..core.registry import ClientRegistry
from .base import InferenceClient


class _AsyncLoopRunner:
    """Run an asyncio event loop in a background thread."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._run_loop, name="ipw-vllm", daemon=True
        )
        self._thread.start()

    def run(self, coro) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result()

    def _run_loop(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()


@ClientRegistry.register("vllm")
class VLLMClient(InferenceClient):
    """Offline AsyncLLM client."""

    client_id = "vllm"
    client_name = "vLLM Offline"
    DEFAULT_BASE_URL = "offline://vllm"

    def __init__(self, base_url: str | None = None, **config: Any) -> None:
        super().__init__(base_url or self.DEFAULT_BASE_URL, **config)
        self._engine_kwargs: dict[str, Any] = {
            "max_model_len": 2048,
            "return_sampling_mask": True,  # expect: RPL003 "processed_logprobs"
        }
        self._sampling_defaults: dict[str, Any] = {
            "max_tokens": 4096,
            "temperature": 0.6,
            "top_p": 0.95,
            "top_k": 20,
            "min_p": 0.0,
        }
        self._engine = None
        self._engine_args = None
        self._model_name = None
        self._loop_runner: _AsyncLoopRunner | None = _AsyncLoopRunner()

    def prepare(self, model: str) -> None:
        self._ensure_engine(model)

    def stream_chat_completion(self, model: str, prompt: str, **params: Any) -> str:
        self._ensure_engine(model)

        sampling_params = self._build_sampling_params(params)
        request_id = str(params.get("request_id", uuid.uuid4()))
        runner = self._loop_runner
        if runner is None:
            raise RuntimeError("vLLM client is shut down")
        return runner.run(
            self._stream_response(
                prompt=prompt, request_id=request_id, sampling_params=sampling_params
            )
        )

    def _ensure_engine(self, model: str) -> None:
        if not model:
            raise ValueError("model name is required")
        if self._engine is not None:
            if model != self._model_name:
                raise RuntimeError(
                    f"vLLM client already loaded model '{self._model_name}', cannot switch to '{model}'"
                )
            return

        kwargs = dict(self._engine_kwargs)
        kwargs["model"] = model
        try:
            self._engine_args = AsyncEngineArgs(**kwargs)
            self._engine = AsyncLLM.from_engine_args(self._engine_args)
        except Exception as exc:
            raise RuntimeError(f"Failed to initialize vLLM engine: {exc}") from exc
        self._model_name = model

    def _build_sampling_params(self, params: Mapping[str, Any]):
        recognized = {
            "temperature",
            "top_p",
            "top_k",
            "min_p",
            "max_tokens",
            "stop",
            "seed",
        }

        def _coerce(value: Any) -> Any:
            if isinstance(value, str):
                text = value.strip()
                if not text:
                    return text
                try:
                    return json.loads(text)
                except json.JSONDecodeError:
                    return text
            return value

        overrides: dict[str, Any] = {}
        for key, value in params.items():
            if key.startswith("sampling_"):
                overrides[key.split("_", 1)[1]] = _coerce(value)
            elif key in recognized:
                overrides[key] = _coerce(value)

        sampling = {**self._sampling_defaults, **overrides}
        if "stop" in sampling:
            stop_value = sampling["stop"]
            if isinstance(stop_value, str):
                sampling["stop"] = [stop_value]
            elif isinstance(stop_value, (list, tuple)):
                sampling["stop"] = list(stop_value)
        sampling["output_kind"] = RequestOutputKind.DELTA
        return SamplingParams(**sampling)

    async def _stream_response(
        self, *, prompt: str, request_id: str, sampling_params: Any
    ) -> str:
        if self._engine is None:
            raise RuntimeError("vLLM engine is not initialized")

        content_parts: list[str] = []
        async for chunk in self._engine.generate(
            request_id=request_id,
            prompt=prompt,
            sampling_params=sampling_params,
        ):
            for completion in getattr(chunk, "outputs", []) or []:
                delta_text = getattr(completion, "text", "") or ""
                if delta_text:
                    content_parts.append(delta_text)
            if getattr(chunk, "finished", False):
                break
        return "".join(content_parts)
