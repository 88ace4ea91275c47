# Imitates PrimeIntellect-ai/prime-rl packages/prime-rl-configs/src/prime_rl/configs/inference.py (pydantic models validated from a config file)
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field


class SamplingConfig(BaseModel):
    temperature: float = 1.0
    top_k: int = 20
    max_tokens: int = 1024


class RolloutConfig(BaseModel):
    model: str
    engine_kwargs: dict[str, Any] = Field(default_factory=dict)
    sampling: SamplingConfig = SamplingConfig()


def load_config(path: Path = Path(__file__).with_name("rollout.yaml")) -> RolloutConfig:
    with open(path) as f:
        return RolloutConfig.model_validate(yaml.safe_load(f))
