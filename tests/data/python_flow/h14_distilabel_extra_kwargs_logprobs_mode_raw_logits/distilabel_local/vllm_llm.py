# Imitates argilla-io/distilabel src/distilabel/models/llms/vllm.py (pydantic `vLLM` with `extra_kwargs` spread into vllm.LLM in load(); generate())
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, Field, PrivateAttr


class vLLM(BaseModel):
    model: str
    dtype: str = "auto"
    trust_remote_code: bool = False
    quantization: Optional[str] = None
    revision: Optional[str] = None
    seed: int = 0
    extra_kwargs: Optional[Dict[str, Any]] = Field(default_factory=dict)

    _model: Any = PrivateAttr(None)

    def load(self) -> None:
        from vllm import LLM as _vLLM

        self._model = _vLLM(
            self.model,
            dtype=self.dtype,
            trust_remote_code=self.trust_remote_code,
            quantization=self.quantization,
            revision=self.revision,
            seed=self.seed,
            **self.extra_kwargs,
        )

    def generate(
        self,
        inputs: List[str],
        num_generations: int = 1,
        max_new_tokens: int = 128,
        presence_penalty: float = 0.0,
        frequency_penalty: float = 0.0,
        repetition_penalty: float = 1.0,
        temperature: float = 1.0,
        top_p: float = 1.0,
        top_k: int = -1,
        min_p: float = 0.0,
        extra_sampling_params: Optional[Dict[str, Any]] = None,
    ) -> List[List[str]]:
        from vllm import SamplingParams

        if extra_sampling_params is None:
            extra_sampling_params = {}
        sampling_params = SamplingParams(
            n=num_generations,
            presence_penalty=presence_penalty,
            frequency_penalty=frequency_penalty,
            repetition_penalty=repetition_penalty,
            temperature=temperature,
            top_p=top_p,
            top_k=top_k,
            min_p=min_p,
            max_tokens=max_new_tokens,
            **extra_sampling_params,
        )
        outputs = self._model.generate(inputs, sampling_params, use_tqdm=False)
        return [[o.text for o in out.outputs] for out in outputs]
