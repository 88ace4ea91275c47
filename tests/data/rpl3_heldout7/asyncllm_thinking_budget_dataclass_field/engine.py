"""Async rollout engine with a bounded reasoning phase."""

import uuid
from dataclasses import dataclass

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


@dataclass
class RolloutConfig:
    model: str = "Qwen/Qwen3-4B"
    temperature: float = 1.0
    top_k: int = 64
    max_tokens: int = 6144
    thinking_budget: int = 4096


class RolloutEngine:
    def __init__(self, cfg: RolloutConfig):
        self.cfg = cfg
        self.engine = AsyncLLM.from_engine_args(
            AsyncEngineArgs(
                model=cfg.model,
                reasoning_parser="qwen3",
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
                enable_prefix_caching=True,
            )
        )

    async def rollout(self, prompt: str):
        params = SamplingParams(
            temperature=self.cfg.temperature,
            top_k=self.cfg.top_k,
            max_tokens=self.cfg.max_tokens,
            thinking_token_budget=self.cfg.thinking_budget,
            logprobs=0,
        )
        final = None
        async for out in self.engine.generate(prompt, params, request_id=str(uuid.uuid4())):
            final = out
        return final


engine = RolloutEngine(RolloutConfig())
