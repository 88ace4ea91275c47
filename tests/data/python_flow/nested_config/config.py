# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/orchestrator/config.py: a config of configs,
# the engine's part made by `default_factory`, its fields read where the engine starts.
from dataclasses import asdict, dataclass, field

from vllm import LLM


@dataclass
class VllmConfig:
    model: str = "Qwen/Qwen3-8B"
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003


@dataclass
class TrainConfig:
    seed: int = 0
    vllm: VllmConfig = field(default_factory=VllmConfig)


def start(config: TrainConfig):
    return LLM(**asdict(config.vllm))


start(TrainConfig(seed=3))
