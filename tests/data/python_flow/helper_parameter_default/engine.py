# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: the logprobs mode
# is a parameter whose default the call does not override.
from vllm import LLM


def engine_kwargs(model, logprobs_mode="raw_logprobs"):  # expect: RPL003 "`logprobs_mode=logprobs_mode`"
    return dict(model=model, return_sampling_mask=True, logprobs_mode=logprobs_mode)


def build():
    return LLM(**engine_kwargs("Qwen/Qwen3-8B"))
