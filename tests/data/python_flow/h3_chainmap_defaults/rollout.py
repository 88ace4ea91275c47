# Imitates alibaba/ROLL roll/third_party/vllm/ engine options: the user's overrides layered over
# the strategy's defaults with `collections.ChainMap` (the first mapping wins).
from collections import ChainMap

from vllm import LLM

STRATEGY_DEFAULTS = {
    "gpu_memory_utilization": 0.6,
    "enforce_eager": False,
    "logprobs_mode": "raw_logprobs",  # expect: RPL003
}

USER_OVERRIDES = {
    "return_sampling_mask": True,
    "max_num_seqs": 256,
}


def build_engine(model_path):
    options = ChainMap(USER_OVERRIDES, STRATEGY_DEFAULTS)
    return LLM(model=model_path, **options)


llm = build_engine("Qwen/Qwen2.5-7B-Instruct")
