# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py's class hierarchy: a
# base rollout builds the engine from its keywords, a subclass's `__init__` adds the replay
# keywords in its `super().__init__(...)` call.
from vllm import LLM


class BaseRollout:
    def __init__(self, model_path, **engine_kwargs):
        self.model_path = model_path
        self.inference_engine = LLM(model=model_path, enforce_eager=True, **engine_kwargs)


class ReplayRollout(BaseRollout):
    def __init__(self, model_path, tensor_parallel_size=1, **engine_kwargs):
        super().__init__(
            model_path,
            tensor_parallel_size=tensor_parallel_size,
            return_sampling_mask=True,
            **engine_kwargs,
        )


rollout = ReplayRollout("Qwen/Qwen3-8B", max_model_len=4096, logprobs_mode="processed_logprobs")
