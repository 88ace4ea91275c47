# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py, which clones its
# sampling params and writes attributes for a group of samples (`sp.n = 8`).
from vllm import LLM, SamplingParams

BASE_PARAMS = SamplingParams(temperature=1.0, top_k=50, max_tokens=512)


def make_group_params(n):
    sp = BASE_PARAMS.clone()
    sp.n = n
    sp.seed = 1234
    return sp


llm = LLM("Qwen/Qwen2.5-3B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm.generate(["Solve: 12 * 7"], make_group_params(8))
