from dataclasses import dataclass


@dataclass
class SamplingConfig:
    temperature: float = 1.0
    top_k: int = 100
    top_p: float = 1.0
    max_tokens: int = 2048
    repetition_penalty: float = 1.05
