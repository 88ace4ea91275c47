# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/inference_engines/vllm/vllm_engine.py: keys
# written into the engine dict after its literal.
from vllm import AsyncEngineArgs


def make_args(model):
    kwargs = {"model": model, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    kwargs["speculative_config"] = {"method": "ngram", "num_speculative_tokens": 4, "enable_adaptive_verification": True}  # expect: RPL002
    return AsyncEngineArgs(**kwargs)
