# Imitates docling-project/docling docling/models/inference_engines/vlm/base.py (VlmEngineInput, VlmEngineOutput)
from typing import Any

from PIL.Image import Image
from pydantic import BaseModel, ConfigDict, Field


class VlmEngineInput(BaseModel):
    """Input to a VLM inference engine."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    image: Image = Field(description="PIL Image to process")
    prompt: str = Field(description="Text prompt for the model")
    temperature: float = Field(
        default=0.0, description="Sampling temperature for generation"
    )
    max_new_tokens: int = Field(
        default=4096, description="Maximum number of tokens to generate"
    )
    stop_strings: list[str] = Field(
        default_factory=list, description="Strings that trigger generation stopping"
    )
    extra_generation_config: dict[str, Any] = Field(
        default_factory=dict, description="Additional generation configuration"
    )


class VlmEngineOutput(BaseModel):
    text: str = Field(description="Generated text from the model")
    stop_reason: str | None = Field(default=None)
