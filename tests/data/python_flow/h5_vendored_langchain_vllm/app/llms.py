# Imitates langchain-ai/langchain-community/libs/community/langchain_community/llms/vllm.py (the VLLM class, copied into the project)
from typing import Any, Optional

from pydantic import BaseModel, Field, model_validator


class VLLM(BaseModel):
    model: str = ""
    tensor_parallel_size: Optional[int] = 1
    trust_remote_code: Optional[bool] = False
    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1  # expect: RPL102
    max_new_tokens: int = 512
    vllm_kwargs: dict[str, Any] = Field(default_factory=dict)
    client: Any = None

    @model_validator(mode="before")
    @classmethod
    def validate_environment(cls, values: dict) -> dict:
        from vllm import LLM as VLLModel

        values["client"] = VLLModel(
            model=values["model"],
            tensor_parallel_size=values.get("tensor_parallel_size", 1),
            trust_remote_code=values.get("trust_remote_code", False),
            **values.get("vllm_kwargs", {}),
        )
        return values

    @property
    def _default_params(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "max_tokens": self.max_new_tokens,
            "top_k": self.top_k,
            "top_p": self.top_p,
            "temperature": self.temperature,
        }

    def generate(self, prompts: list[str], **kwargs: Any) -> list[str]:
        from vllm import SamplingParams

        params = {**self._default_params, **kwargs}
        sampling_params = SamplingParams(**params)
        outputs = self.client.generate(prompts, sampling_params)
        return [output.outputs[0].text for output in outputs]
