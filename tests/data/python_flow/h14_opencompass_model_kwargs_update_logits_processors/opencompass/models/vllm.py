# Imitates open-compass/opencompass opencompass/models/vllm.py (DEFAULT_MODEL_KWARGS.copy().update(model_kwargs); generation_kwargs)
from typing import Dict, List, Optional

try:
    from vllm import LLM, SamplingParams
except ImportError:
    LLM, SamplingParams = None, None

DEFAULT_MODEL_KWARGS = dict(trust_remote_code=True)


class VLLM:
    def __init__(
        self,
        path: str,
        max_seq_len: int = 2048,
        model_kwargs: dict = None,
        generation_kwargs: dict = dict(),
        meta_template: Optional[Dict] = None,
    ):
        self.path = path
        self.max_seq_len = max_seq_len
        self._load_model(path, model_kwargs)
        self.generation_kwargs = generation_kwargs
        self.generation_kwargs.pop("do_sample", None)

    def _load_model(self, path: str, add_model_kwargs: dict = None, num_retry: int = 3):
        model_kwargs = DEFAULT_MODEL_KWARGS.copy()
        if add_model_kwargs is not None:
            model_kwargs.update(add_model_kwargs)
        self.model = LLM(path, **model_kwargs)

    def generate(self, inputs: List[str], max_out_len: int, **kwargs) -> List[str]:
        generation_kwargs = kwargs.copy()
        generation_kwargs.update(self.generation_kwargs)
        generation_kwargs.update({"max_tokens": max_out_len})
        sampling_kwargs = SamplingParams(**generation_kwargs)
        outputs = self.model.generate(inputs, sampling_kwargs)
        return [output.outputs[0].text for output in outputs]
