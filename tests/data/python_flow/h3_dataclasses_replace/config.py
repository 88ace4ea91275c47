# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/ config dataclasses, where the eval engine is
# a `dataclasses.replace` of the rollout engine's config.
from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class EngineConfig:
    model: str = "Qwen/Qwen2.5-1.5B-Instruct"
    tensor_parallel_size: int = 1
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"


ROLLOUT = EngineConfig()
EVAL = replace(ROLLOUT, logprobs_mode="raw_logprobs")  # expect: RPL003
