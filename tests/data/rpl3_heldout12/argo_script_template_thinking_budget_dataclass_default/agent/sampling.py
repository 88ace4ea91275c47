from dataclasses import dataclass


@dataclass
class AgentSampling:
    temperature: float = 0.6
    top_k: int = 20
    max_tokens: int = 8192
    logprobs: int = 1
    thinking_token_budget: int = 2048
