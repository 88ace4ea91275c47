# Imitates PrimeIntellect-ai/prime-rl's pydantic v2 config models (src/prime_rl/**/config.py):
# one model per TOML table, defaults on every field, validated from the file read by path.
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field


class ModelConfig(BaseModel):
    name: str = "Qwen/Qwen3-0.6B"
    hf_overrides: dict[str, Any] = Field(default_factory=dict)


class SamplingConfig(BaseModel):
    temperature: float = 1.0
    top_k: int = 50
    max_completion_tokens: int = 256


class TrainConfig(BaseModel):
    sampling: SamplingConfig = Field(default_factory=SamplingConfig)


class OrchestratorConfig(BaseModel):
    train: TrainConfig = Field(default_factory=TrainConfig)


class RLConfig(BaseModel):
    max_steps: int = 100
    seq_len: int = 4096
    model: ModelConfig = Field(default_factory=ModelConfig)
    orchestrator: OrchestratorConfig = Field(default_factory=OrchestratorConfig)


def load_config(path: Path) -> RLConfig:
    with open(path, "rb") as f:
        return RLConfig.model_validate(tomllib.load(f))
