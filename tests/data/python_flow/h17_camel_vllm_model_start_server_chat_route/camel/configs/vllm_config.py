# Imitates camel-ai/camel camel/configs/vllm_config.py (VLLMConfig, a pydantic BaseConfig)
from typing import Optional

from pydantic import BaseModel


class VLLMConfig(BaseModel):
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    n: Optional[int] = None
    max_tokens: Optional[int] = None
    presence_penalty: Optional[float] = None
    frequency_penalty: Optional[float] = None
    extra_body: Optional[dict] = None

    def as_dict(self):
        return {k: v for k, v in self.model_dump().items() if v is not None}
