# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py: request
# keywords built from a config dict in `__init__`, updated per call by a helper, then
# `SamplingParams(**kwargs)` sent to the replay engine.
from vllm import LLM, SamplingParams

DEFAULT_SAMPLING = {"temperature": 1.0, "top_p": 1.0, "top_k": 50, "max_tokens": 1024}


def validation_overrides():
    return {"temperature": 0.6, "top_k": 20, "n": 1}


class Rollout:
    def __init__(self, model_path):
        self.inference_engine = LLM(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.sampling_kwargs = dict(DEFAULT_SAMPLING)

    def generate_sequences(self, prompts, validate=False):
        kwargs = dict(self.sampling_kwargs)
        if validate:
            kwargs.update(validation_overrides())
        params = SamplingParams(**kwargs)
        return self.inference_engine.generate(prompts, sampling_params=params)


outputs = Rollout("Qwen/Qwen3-8B").generate_sequences(["hello"])
