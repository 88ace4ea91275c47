# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: the replay engine built in
# `__init__`, the request from the helper sent by another method.
import vllm

from rollout.sampling import SamplingConfig, build_sampling_params


class VllmGenerationWorker:
    def __init__(self, model_name):
        self.sampling = SamplingConfig()
        self.llm = vllm.LLM(model=model_name, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate(self, prompts):
        params = build_sampling_params(self.sampling)
        return self.llm.generate(prompts, sampling_params=params)
