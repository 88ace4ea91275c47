# Imitates THU-KEG/LongWriter-V inference/local/mistral.py: Mistral builds LLM lazily with
# tensor_parallel_size from its keywords (default 8) and sends chat requests with
# SamplingParams(**kwargs). The user turned replay on.
from vllm import LLM, SamplingParams

from config import config
from inference.local.base import BaseModel


class Mistral(BaseModel):
    def __init__(self, model_path: str, **kwargs):
        super().__init__(model_path)
        self.load_kwargs = kwargs

    def _load(self):
        if self.model is None:
            self.model = LLM(
                model=self.model_path,
                tensor_parallel_size=self.load_kwargs.get("tensor_parallel_size", 8),
                trust_remote_code=True,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )

    def inference(self, msgs, **kwargs):
        self._load()
        sampling_params = SamplingParams(**kwargs)
        res = self.model.chat(msgs, sampling_params)
        return res[0].outputs[0].text


def get_model(type):
    return Mistral(config.model_paths["mistral"][type])
