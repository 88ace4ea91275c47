"""Sampling settings of the rollout workers, in the spirit of transformers' GenerationConfig."""

from dataclasses import dataclass


@dataclass(frozen=True)
class GenerationConfig:
    temperature: float = 1.0
    top_k: int = 50
    top_p: float = 1.0
    max_tokens: int = 1024
    repetition_penalty: float = 1.05
