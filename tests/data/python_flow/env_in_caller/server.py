# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: the runner variable set
# in `main()` before it calls the function that builds the engine.
import os

from vllm import AsyncEngineArgs


def engine_args(model):
    return AsyncEngineArgs(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def main():
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
    return engine_args("Qwen/Qwen3-8B")
