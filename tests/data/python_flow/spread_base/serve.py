# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: a base mapping spread
# into the engine's, the mask added on top.
from vllm import LLM

BASE = {"model": "Qwen/Qwen3-8B", "logprobs_mode": "raw_logprobs"}  # expect: RPL003
llm = LLM(**{**BASE, "return_sampling_mask": True})
