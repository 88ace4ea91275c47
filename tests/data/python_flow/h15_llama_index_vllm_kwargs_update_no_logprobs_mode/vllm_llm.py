# Imitates run-llama/llama_index llama-index-integrations/llms/llama-index-llms-vllm/llama_index/llms/vllm/base.py (Vllm)
from typing import Any, Dict, List, Optional

from vllm import LLM as VLLModel
from vllm import SamplingParams


class Vllm:
    """Vllm LLM (vendored without the llama_index base classes)."""

    def __init__(
        self,
        model: str = "facebook/opt-125m",
        temperature: float = 1.0,
        tensor_parallel_size: int = 1,
        trust_remote_code: bool = False,
        n: int = 1,
        presence_penalty: float = 0.0,
        frequency_penalty: float = 0.0,
        top_p: float = 1.0,
        top_k: int = -1,
        stop: Optional[List[str]] = None,
        ignore_eos: bool = False,
        max_new_tokens: int = 512,
        logprobs: Optional[int] = None,
        dtype: str = "auto",
        download_dir: Optional[str] = None,
        vllm_kwargs: Dict[str, Any] = {},
    ) -> None:
        self._client = VLLModel(
            model=model,
            tensor_parallel_size=tensor_parallel_size,
            trust_remote_code=trust_remote_code,
            dtype=dtype,
            download_dir=download_dir,
            **vllm_kwargs,
        )
        self.temperature = temperature
        self.n = n
        self.presence_penalty = presence_penalty
        self.frequency_penalty = frequency_penalty
        self.top_p = top_p
        self.top_k = top_k
        self.stop = stop
        self.ignore_eos = ignore_eos
        self.max_new_tokens = max_new_tokens
        self.logprobs = logprobs

    @property
    def _model_kwargs(self) -> Dict[str, Any]:
        base_kwargs = {
            "temperature": self.temperature,
            "max_tokens": self.max_new_tokens,
            "n": self.n,
            "frequency_penalty": self.frequency_penalty,
            "presence_penalty": self.presence_penalty,
            "ignore_eos": self.ignore_eos,
            "stop": self.stop,
            "logprobs": self.logprobs,
            "top_k": self.top_k,
            "top_p": self.top_p,
        }
        return {**base_kwargs}

    def complete(self, prompt: str, **kwargs: Any) -> str:
        kwargs = kwargs if kwargs else {}
        params = {**self._model_kwargs, **kwargs}
        sampling_params = SamplingParams(**params)
        outputs = self._client.generate([prompt], sampling_params)
        return outputs[0].outputs[0].text
