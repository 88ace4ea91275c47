# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py (validation runs with val_kwargs changed on a copy of the sampling params)
import copy

from vllm import LLM, SamplingParams


class vLLMRollout:
    def __init__(self, model_path, response_length=1024):
        self.inference_engine = LLM(
            model=model_path,
            gpu_memory_utilization=0.5,
            enable_prefix_caching=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            max_logprobs=1,
        )
        self.sampling_params = SamplingParams(n=1, temperature=1.0, top_p=1.0, top_k=50, logprobs=0, max_tokens=response_length)
        self.val_sampling_params = copy.deepcopy(self.sampling_params)
        # val_kwargs: a cooler temperature, one sample
        self.val_sampling_params.temperature = 0.6
        self.val_sampling_params.n = 1

    def generate_sequences(self, prompts, validate=False):
        params = self.val_sampling_params if validate else self.sampling_params
        return self.inference_engine.generate(prompts, params)
