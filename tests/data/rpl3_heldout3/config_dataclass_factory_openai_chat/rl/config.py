from dataclasses import dataclass


@dataclass(frozen=True)
class SamplerConfig:
    base_url: str = "http://localhost:8000/v1"
    model: str = "Qwen/Qwen3-8B"
    top_k: int = 20
