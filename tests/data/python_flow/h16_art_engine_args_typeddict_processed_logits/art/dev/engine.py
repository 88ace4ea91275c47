# Imitates OpenPipe/ART src/art/dev/engine.py (EngineArgs TypedDict) and src/art/dev/get_model_config.py.
from typing import TypedDict


class EngineArgs(TypedDict, total=False):
    model: str
    gpu_memory_utilization: float
    enable_sleep_mode: bool
    generation_config: str
    max_model_len: int
    return_sampling_mask: bool
    logprobs_mode: str


class InternalModelConfig(TypedDict, total=False):
    engine_args: EngineArgs


def get_model_config(base_model: str, config: InternalModelConfig | None = None) -> InternalModelConfig:
    if config is None:
        config = InternalModelConfig()
    engine_args = EngineArgs(
        model=base_model,
        gpu_memory_utilization=0.79,
        enable_sleep_mode=True,
        generation_config="vllm",
    )
    engine_args.update(config.get("engine_args", {}))
    return InternalModelConfig(engine_args=engine_args)
