# Imitates alibaba/ROLL roll/third_party/vllm/ (engine options kept as a typed NamedTuple with
# defaults, spread with `_asdict()`).
from typing import NamedTuple

from vllm import LLM


class EngineSpec(NamedTuple):
    model: str
    tensor_parallel_size: int = 1
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
    logits_processors: tuple = ("roll.utils.NoRepeat",)  # expect: RPL001


def start(spec: EngineSpec):
    return LLM(**spec._asdict())


llm = start(EngineSpec("Qwen/Qwen3-8B", tensor_parallel_size=1))
