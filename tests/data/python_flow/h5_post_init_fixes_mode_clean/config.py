# Imitates huggingface/trl/trl/trainer/grpo_config.py (a dataclass whose __post_init__ settles dependent fields)
from dataclasses import asdict, dataclass

from vllm import LLM, SamplingParams


@dataclass
class RolloutEngineConfig:
    model: str = "Qwen/Qwen2.5-0.5B-Instruct"
    gpu_memory_utilization: float = 0.3
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"

    def __post_init__(self):
        if self.return_sampling_mask:
            self.logprobs_mode = "processed_logprobs"


llm = LLM(**asdict(RolloutEngineConfig()))
llm.generate(["Tell me a joke."], SamplingParams(temperature=1.0, top_k=50, max_tokens=64))
