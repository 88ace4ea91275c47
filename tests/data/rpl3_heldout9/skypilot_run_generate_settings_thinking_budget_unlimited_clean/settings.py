from dataclasses import dataclass


@dataclass(frozen=True)
class RolloutSettings:
    server_url: str = "http://localhost:8000"
    temperature: float = 1.0
    top_k: int = 20
    max_tokens: int = 8192
    thinking_token_budget: int = -1  # -1: no budget (vLLM reads it as unset)
