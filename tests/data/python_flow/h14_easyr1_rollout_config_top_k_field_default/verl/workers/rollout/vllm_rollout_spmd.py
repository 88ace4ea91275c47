# Imitates hiyouga/EasyR1 verl/workers/rollout/vllm_rollout_spmd.py (vLLMRollout: sampling kwargs = every config key SamplingParams has)
from vllm import LLM, SamplingParams

from .config import RolloutConfig


class vLLMRollout:
    def __init__(self, model_path: str, config: RolloutConfig):
        self.config = config
        self.inference_engine = LLM(
            model=model_path,
            skip_tokenizer_init=False,
            trust_remote_code=config.trust_remote_code,
            tensor_parallel_size=config.tensor_parallel_size,
            dtype=config.dtype,
            gpu_memory_utilization=config.gpu_memory_utilization,
            max_num_batched_tokens=config.max_num_batched_tokens,
            disable_log_stats=config.disable_log_stats,
            enforce_eager=config.enforce_eager,
            seed=config.seed,
            # replayed by the actor's loss
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        sampling_kwargs = {"max_tokens": config.response_length, "detokenize": False}
        default_sampling_params = SamplingParams()
        for key in config.to_dict().keys():
            if hasattr(default_sampling_params, key):
                sampling_kwargs[key] = getattr(config, key)

        self.sampling_params = SamplingParams(**sampling_kwargs)

    def generate_sequences(self, prompt_token_ids: list[list[int]]):
        vllm_inputs = [{"prompt_token_ids": ids} for ids in prompt_token_ids]
        completions = self.inference_engine.generate(
            prompts=vllm_inputs, sampling_params=self.sampling_params, use_tqdm=False
        )
        return [list(output.token_ids) for completion in completions for output in completion.outputs]
