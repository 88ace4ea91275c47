# Imitates alibaba/ROLL roll/distributed/strategy/vllm_strategy.py: the worker's environment is
# written with `os.environ.update({...})` before the engine is built.
import os

from vllm import LLM

VLLM_ENV = {
    "VLLM_ALLOW_INSECURE_SERIALIZATION": "1",
    "VLLM_USE_V2_MODEL_RUNNER": "false",  # expect: RPL206
}


def initialize(model_path):
    os.environ.update(VLLM_ENV)
    return LLM(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")


llm = initialize("Qwen/Qwen3-8B")
