from dataclasses import dataclass


@dataclass(frozen=True)
class RolloutSampling:
    temperature: float = 1.0
    top_k: int = 50
    max_tokens: int = 2048
    presence_penalty: float = 0.0
    repetition_penalty: float = 1.0


DEFAULT_SAMPLING = RolloutSampling()
