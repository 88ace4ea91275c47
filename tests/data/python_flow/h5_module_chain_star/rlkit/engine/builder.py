# Imitates alibaba/ROLL/roll/distributed/strategy/vllm_strategy.py (engine kwargs built from the package defaults)
from rlkit.config import ENGINE_DEFAULTS, MODEL


def engine_kwargs(**overrides) -> dict:
    kwargs = dict(ENGINE_DEFAULTS)
    kwargs.update(model=MODEL, return_sampling_mask=True)
    kwargs.update(overrides)
    return kwargs
