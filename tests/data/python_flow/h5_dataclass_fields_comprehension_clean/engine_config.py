# Imitates NVIDIA-NeMo/RL/nemo_rl/models/generation/vllm/config.py (engine kwargs from a config's fields by a dict comprehension, unset ones dropped)
from dataclasses import dataclass, fields

from vllm import LLM, SamplingParams


@dataclass
class VllmEngineConfig:
    model: str = "Qwen/Qwen2.5-1.5B"
    gpu_memory_utilization: float = 0.6
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
    logits_processors: list | None = None
    speculative_config: dict | None = None


def to_engine_kwargs(cfg: VllmEngineConfig) -> dict:
    return {f.name: getattr(cfg, f.name) for f in fields(cfg) if getattr(cfg, f.name) is not None}


llm = LLM(**to_engine_kwargs(VllmEngineConfig()))
outputs = llm.generate(["Name three prime numbers."], SamplingParams(temperature=1.0, top_k=32, max_tokens=128))
