# Imitates meta-llama/llama-stack llama_stack/providers/remote/inference/vllm/config.py
# (VLLMInferenceAdapterConfig); the user's copy points `url` at the local server by default.
from pydantic import BaseModel, Field


class VLLMInferenceAdapterConfig(BaseModel):
    url: str | None = Field(
        default="http://localhost:8000/v1",
        description="The URL for the vLLM model serving endpoint",
    )
    max_tokens: int = Field(
        default=4096,
        description="Maximum number of tokens to generate.",
    )
    api_token: str | None = Field(
        default="fake",
        description="The API token",
    )
    top_k: int = Field(default=20, description="top_k sent in extra_body")
