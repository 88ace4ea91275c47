# Imitates NovaSky-AI/SkyRL/skyrl-train/skyrl_train/inference_engines/base.py (TypedDict records for what the engines take)
from typing import Literal, TypedDict

from vllm import LLM

LogprobsMode = Literal["raw_logprobs", "processed_logprobs", "raw_logits", "processed_logits"]


class EngineKwargs(TypedDict, total=False):
    model: str
    tensor_parallel_size: int
    return_sampling_mask: bool
    logprobs_mode: LogprobsMode


def rollout_engine_kwargs(model: str, tp: int = 1) -> EngineKwargs:
    return EngineKwargs(
        model=model,
        tensor_parallel_size=tp,
        return_sampling_mask=True,
        logprobs_mode="raw_logits",  # expect: RPL003
    )


llm = LLM(**rollout_engine_kwargs("Qwen/Qwen2.5-Math-1.5B"))
