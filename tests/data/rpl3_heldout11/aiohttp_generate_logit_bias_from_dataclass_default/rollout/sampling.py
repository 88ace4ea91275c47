from dataclasses import dataclass, field


@dataclass
class SamplingConfig:
    temperature: float = 1.0
    top_k: int = 64
    max_tokens: int = 2048
    # discourage an early <|endoftext|> in long rollouts
    logit_bias: dict[int, float] = field(default_factory=lambda: {151643: -4.0})
