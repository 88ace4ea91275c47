# Imitates alibaba/ROLL roll/third_party/vllm/ (engine options kept as a typed NamedTuple with
# defaults, spread with `_asdict()`; the call replaces the one default vLLM would refuse).
from typing import NamedTuple

from vllm import LLM


class EngineSpec(NamedTuple):
    model: str
    tensor_parallel_size: int = 1
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"


def start(spec: EngineSpec):
    return LLM(**spec._asdict())


llm = start(EngineSpec("Qwen/Qwen3-8B", logprobs_mode="processed_logprobs"))
