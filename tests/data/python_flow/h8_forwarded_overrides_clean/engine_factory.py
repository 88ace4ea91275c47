# Imitates PrimeIntellect-ai/verifiers verifiers/inference (an engine factory forwarding the caller's keyword arguments)
from vllm import LLM


def create_engine(model, **engine_overrides):
    return LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs", **engine_overrides)


def create_eval_engine(model):
    return create_engine(model, max_model_len=8192, enforce_eager=True)
