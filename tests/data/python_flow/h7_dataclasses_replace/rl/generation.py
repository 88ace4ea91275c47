import dataclasses

from vllm import LLM

from rl.config import BASE


def replay_engine() -> LLM:
    cfg = dataclasses.replace(BASE, return_sampling_mask=True, gpu_memory_utilization=0.5)
    return LLM(**dataclasses.asdict(cfg))
