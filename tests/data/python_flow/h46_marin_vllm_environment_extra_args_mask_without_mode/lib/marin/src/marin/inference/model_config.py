# Imitates marin-community/marin lib/marin/src/marin/inference/model_config.py, trimmed.
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ModelConfig:
    name: str
    path: str | None = None
    engine_kwargs: dict[str, Any] = field(default_factory=dict)
