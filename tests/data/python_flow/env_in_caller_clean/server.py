# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py, where the module asks
# for the V1 runner and `main()` drops the variable before the engine is built: clean.
import os

from vllm import AsyncEngineArgs

os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"


def engine_args(model):
    return AsyncEngineArgs(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def main():
    os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)
    return engine_args("Qwen/Qwen3-8B")
