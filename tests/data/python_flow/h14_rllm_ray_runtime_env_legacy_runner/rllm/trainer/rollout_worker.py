# Imitates agentica-project/rllm rllm/engine (a Ray actor that owns the vLLM engine and samples trajectories)
import ray
from vllm import LLM, SamplingParams


@ray.remote(num_gpus=1)
class RolloutWorker:
    def __init__(self, model_path: str, max_model_len: int = 16384):
        self.llm = LLM(
            model=model_path,
            max_model_len=max_model_len,
            enable_prefix_caching=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.sampling_params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=8192)

    def rollout(self, prompts):
        return [o.outputs[0].token_ids for o in self.llm.generate(prompts, self.sampling_params)]
