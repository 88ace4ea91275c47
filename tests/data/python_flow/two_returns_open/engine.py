# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: a helper whose
# arguments depend on the path it takes: which return reaches the engine is not known here.
from vllm import LLM


def engine_kwargs(model, fast):
    if fast:
        return {"model": model, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    return {"model": model, "return_sampling_mask": True, "enforce_eager": True, "logprobs_mode": "processed_logprobs"}


def build(model, fast):
    return LLM(**engine_kwargs(model, fast))
