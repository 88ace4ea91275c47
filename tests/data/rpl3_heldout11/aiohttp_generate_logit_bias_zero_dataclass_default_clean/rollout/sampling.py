from dataclasses import dataclass, field


@dataclass
class SamplingConfig:
    temperature: float = 1.0
    top_k: int = 64
    max_tokens: int = 2048
    # placeholder: set a bias per run; 0.0 leaves <|endoftext|> as the policy has it
    logit_bias: dict[int, float] = field(default_factory=lambda: {151643: 0.0})
