# Imitates langchain-ai/langchain libs/community/langchain_community/llms/vllm.py (VLLM: pydantic fields, vllm_kwargs, _default_params)
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, Field, model_validator


class VLLM(BaseModel):
    """VLLM language model (vendored; `best_of` and `use_beam_search` dropped for vLLM 0.34)."""

    model: str = ""
    tensor_parallel_size: Optional[int] = 1
    trust_remote_code: Optional[bool] = False
    n: int = 1
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1
    stop: Optional[List[str]] = None
    ignore_eos: bool = False
    max_new_tokens: int = 512
    logprobs: Optional[int] = None
    dtype: str = "auto"
    download_dir: Optional[str] = None
    vllm_kwargs: Dict[str, Any] = Field(default_factory=dict)
    client: Any = None

    @model_validator(mode="before")
    @classmethod
    def validate_environment(cls, values: Dict) -> Any:
        from vllm import LLM as VLLModel

        values["client"] = VLLModel(
            model=values["model"],
            tensor_parallel_size=values.get("tensor_parallel_size", 1),
            trust_remote_code=values.get("trust_remote_code", False),
            dtype=values.get("dtype", "auto"),
            download_dir=values.get("download_dir"),
            **values.get("vllm_kwargs", {}),
        )
        return values

    @property
    def _default_params(self) -> Dict[str, Any]:
        return {
            "n": self.n,
            "max_tokens": self.max_new_tokens,
            "top_k": self.top_k,
            "top_p": self.top_p,
            "temperature": self.temperature,
            "presence_penalty": self.presence_penalty,
            "frequency_penalty": self.frequency_penalty,
            "stop": self.stop,
            "ignore_eos": self.ignore_eos,
            "logprobs": self.logprobs,
        }

    def generate(self, prompts: List[str], stop: Optional[List[str]] = None, **kwargs: Any) -> List[str]:
        from vllm import SamplingParams

        params = {**self._default_params, **kwargs, "stop": stop}
        sampling_params = SamplingParams(**params)
        outputs = self.client.generate(prompts, sampling_params)
        return [output.outputs[0].text for output in outputs]

    def invoke(self, prompt: str, **kwargs: Any) -> str:
        return self.generate([prompt], **kwargs)[0]
