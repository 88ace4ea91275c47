# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: a helper whose
# arguments depend on the path it takes; each return is followed as a branch, and both give
# the engine what replay needs.
from vllm import LLM


def engine_kwargs(model, fast):
    if fast:
        return {"model": model, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    return {"model": model, "return_sampling_mask": True, "enforce_eager": True, "logprobs_mode": "processed_logprobs"}


def build(model, fast):
    return LLM(**engine_kwargs(model, fast))
