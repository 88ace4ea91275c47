# Imitates ContextualAI/HALOs train/sample.py's sampling options, kept by the user in a frozen dataclass.
from dataclasses import dataclass


@dataclass(frozen=True)
class SampleConfig:
    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 40
    max_tokens: int = 2048
    n: int = 1


DEFAULT = SampleConfig()
