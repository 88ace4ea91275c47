from dataclasses import dataclass


@dataclass
class ProbeParams:
    """Sample from the whole vocabulary: every token the checkpoint knows."""

    temperature: float = 1.0
    top_k: int = 151_936
    max_tokens: int = 256
    logprobs: int = 1
