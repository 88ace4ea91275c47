# Imitates allenai/olmo-eval src/olmo_eval/core (written from its use in backends/vllm.py)
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SamplingParams:
    max_tokens: int = 256
    temperature: float = 0.0
    top_p: float | None = None
    top_k: int | None = None  # expect: RPL102 "top_k=params.top_k if params.top_k else -1"
    num_samples: int = 1
    stop_sequences: tuple[str, ...] = ()
    logprobs: int | None = None


@dataclass
class LMRequest:
    prompt: str
    continuations: tuple[str, ...] | None = None


@dataclass
class LMOutput:
    text: str
    logprobs: list[dict] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
