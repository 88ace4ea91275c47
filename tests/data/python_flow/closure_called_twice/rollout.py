# Imitates vllm-project/vllm tests/config/test_config_generation.py: a factory returns a closure
# that builds the engine, and test functions call the closure.
from vllm import LLM


def make_builder(mode):
    def build(model):
        return LLM(model, return_sampling_mask=True, logprobs_mode=mode)

    return build


build = make_builder("raw_logprobs")  # expect: RPL003


def test_small():
    build("Qwen/Qwen3-0.6B")


def test_large():
    build("Qwen/Qwen3-1.7B")
