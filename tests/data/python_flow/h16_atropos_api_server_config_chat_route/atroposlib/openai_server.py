# Imitates NousResearch/atropos atroposlib/envs/server_handling/server_baseline.py (APIServerConfig) and openai_server.py (OpenAIServer).
from typing import Optional

import openai
from pydantic import BaseModel, Field


class APIServerConfig(BaseModel):
    timeout: int = Field(default=1200, description="Timeout for the request in seconds.")
    model_name: str = Field(default="default", description="The model name to use.")
    api_key: Optional[str] = Field(default="", description="API key for the server.")
    base_url: Optional[str] = Field(default="", description="Base URL for the server.")


class OpenAIServer:
    def __init__(self, config: APIServerConfig):
        self.config = config
        self.openai = openai.AsyncClient(api_key=config.api_key, base_url=config.base_url, timeout=config.timeout)

    async def chat_completion(self, **kwargs):
        kwargs["model"] = self.config.model_name
        return await self.openai.chat.completions.create(**kwargs)  # expect: RPL301
