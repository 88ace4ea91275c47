# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: sampling params made by a helper of another module
from vllm import SamplingParams


def rollout_params(n: int, max_tokens: int = 1024) -> SamplingParams:
    return SamplingParams(n=n, temperature=1.0, top_k=64, top_p=1.0, max_tokens=max_tokens, logprobs=0)
