# Imitates verl's vLLMRollout as SkyworkAI/Skywork-OR1 ships it (verl/workers/rollout/vllm_rollout): the
# engine from the rollout config, SamplingParams keywords taken from every config key SamplingParams has.
from vllm import LLM, SamplingParams


class vLLMRollout:
    def __init__(self, model_path, config):
        self.config = config
        self.inference_engine = LLM(
            model=model_path,
            tensor_parallel_size=config.tensor_model_parallel_size,
            gpu_memory_utilization=config.gpu_memory_utilization,
            max_model_len=config.response_length + 2048,
            return_sampling_mask=config.return_sampling_mask,
            logprobs_mode=config.logprobs_mode,
        )
        kwargs = dict(n=1, logprobs=0, max_tokens=config.response_length)
        for k in config.keys():
            if hasattr(SamplingParams(), str(k)):
                kwargs[k] = config.get(k)
        self.sampling_params = SamplingParams(**kwargs)

    def generate_sequences(self, prompts):
        return self.inference_engine.generate(prompts, self.sampling_params)
