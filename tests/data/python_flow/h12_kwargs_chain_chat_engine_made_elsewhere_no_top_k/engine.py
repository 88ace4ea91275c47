# Imitates sail-sg/oat oat/actors/base.py (the engine is made in one place and `generate` is
# called on it elsewhere with the sampling params the caller chose), as a builder with
# `**overrides` forwarded to `LLM`.
from vllm import LLM


def build_llm(model, **overrides):
    return LLM(
        model=model,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        **overrides,
    )
