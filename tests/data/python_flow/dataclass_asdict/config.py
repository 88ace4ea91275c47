# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/config.py: the engine arguments as
# a dataclass whose defaults reach the engine through `asdict`.
from dataclasses import asdict, dataclass

from vllm import LLM


@dataclass
class EngineConfig:
    model: str = "Qwen/Qwen3-8B"
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003


llm = LLM(**asdict(EngineConfig()))
