# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py, with the mode the
# call site passes: clean.
from vllm import LLM


def engine_kwargs(model, logprobs_mode="raw_logprobs"):
    return dict(model=model, return_sampling_mask=True, logprobs_mode=logprobs_mode)


def build():
    return LLM(**engine_kwargs("Qwen/Qwen3-8B", logprobs_mode="processed_logprobs"))
