# Imitates THU-KEG/LongWriter-V inference/local/glm.py: GLM4 keeps its constructor's keywords and
# reads them with .get() when it builds LLM lazily; the user turned replay on and forwards a
# logits processor given by the caller.
from vllm import LLM, SamplingParams

from config import config
from inference.local.base import BaseModel


class GLM4(BaseModel):
    def __init__(self, model_path: str, **kwargs):
        super().__init__(model_path)
        self.load_kwargs = kwargs

    def _load(self):
        if self.model is None:
            self.model = LLM(
                model=self.model_path,
                tensor_parallel_size=self.load_kwargs.get("tensor_parallel_size", 4),
                trust_remote_code=True,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
                logits_processors=self.load_kwargs.get("logits_processors"),
            )

    def inference_vllm(self, prompt, **kwargs):
        self._load()
        sampling_params = SamplingParams(**kwargs, stop_token_ids=[151329, 151336, 151338])
        outputs = self.model.generate(prompts=prompt, sampling_params=sampling_params)
        return outputs[0].outputs[0].text


def get_model(type, **kwargs):
    return GLM4(config.model_paths["glm4"][type], **kwargs)
