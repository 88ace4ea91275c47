# Imitates inclusionAI/AReaL areal/api/cli_args.py's config hierarchy (a base engine config and
# subclasses that change some defaults), spelled with attrs: a subclass redefines a field.
import attrs


@attrs.define
class EngineConfig:
    model: str = "Qwen/Qwen2.5-Math-1.5B"
    gpu_memory_utilization: float = 0.85
    max_model_len: int = 4096
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"


@attrs.define
class DebugEngineConfig(EngineConfig):
    enforce_eager: bool = True
    # log the model's own scores while debugging the reward
    logprobs_mode: str = "processed_logits"  # expect: RPL003
