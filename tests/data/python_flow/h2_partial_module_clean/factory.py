# Imitates huggingface/trl trl/generation/vllm_generation.py (colocate mode), split as a fork
# splits it: a `functools.partial` of `vllm.LLM` with the replay keywords in one module.
import functools

import vllm

make_llm = functools.partial(vllm.LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs", enforce_eager=True)
