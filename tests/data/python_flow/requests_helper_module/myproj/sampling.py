# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py's validation
# params: greedy decoding made by a helper.
from vllm import SamplingParams


def eval_params(max_tokens=512):
    return SamplingParams(temperature=0, max_tokens=max_tokens, top_k=20)  # expect: RPL101
