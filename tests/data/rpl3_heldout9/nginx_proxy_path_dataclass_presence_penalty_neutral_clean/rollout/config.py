from dataclasses import dataclass


@dataclass(frozen=True)
class SamplingConfig:
    temperature: float = 1.0
    top_k: int = 50
    max_tokens: int = 2048
    logprobs: int = 0
    presence_penalty: float = 0.0  # a penalty would shift the distribution the masks describe
