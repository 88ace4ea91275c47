# Imitates hpcaitech/ColossalAI applications/ColossalChat/coati/distributed/inference_backend.py (VLLMInferenceBackend).
from typing import Any, Dict

from vllm import LLM, SamplingParams

from .utils import update_by_default


class VLLMInferenceBackend:
    DEFAULT_MODEL_CONFIG = dict(
        trust_remote_code=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    FORCE_GENERATE_CONFIG = dict(
        logprobs=0,
    )

    def __init__(self, model_config: Dict[str, Any], generate_config: Dict[str, Any], num_generations: int = 8):
        model_config = update_by_default(model_config, self.DEFAULT_MODEL_CONFIG)
        path = model_config.pop("path")
        self.llm = LLM(model=path, **model_config)
        generate_config = generate_config.copy()
        generate_config.update(self.FORCE_GENERATE_CONFIG)
        generate_config.update({"n": num_generations})
        self.generate_config = SamplingParams(**generate_config)  # expect: RPL102
        self.num_generations = num_generations

    def generate(self, prompt_token_ids):
        return self.llm.generate(prompt_token_ids=prompt_token_ids, sampling_params=self.generate_config, use_tqdm=False)


BACKEND_MAP = {
    "vllm": VLLMInferenceBackend,
}
