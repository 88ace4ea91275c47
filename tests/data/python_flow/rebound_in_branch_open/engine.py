# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py: the whole
# engine dict replaced on one path only: which one reaches the engine is not known here.
from vllm import AsyncEngineArgs


def engine_args(config):
    args = {"model": config.model, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    if config.debug:
        args = dict(config.engine_kwargs)
    return AsyncEngineArgs(**args)
