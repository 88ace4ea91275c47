# Imitates docling-project/docling docling/datamodel/stage_model_specs.py (EngineModelConfig)
from typing import Any, Optional

from pydantic import BaseModel, Field


class EngineModelConfig(BaseModel):
    repo_id: Optional[str] = None
    revision: Optional[str] = None
    extra_config: dict[str, Any] = Field(default_factory=dict)
