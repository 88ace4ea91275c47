# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: the runner variable set
# with setdefault before the engine starts, the engine's keywords from a helper.
import os

from vllm import LLM

os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")  # expect: RPL206


def engine_kwargs():
    return {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


llm = LLM(**engine_kwargs())
