# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/engine_utils.py: helpers
# that assemble the engine's keywords, the speculative block from a second helper.
def speculative_block(
    method: str = "ngram",
    num_speculative_tokens: int = 4,
    adaptive: bool = True,  # expect: RPL002
) -> dict:
    return {
        "method": method,
        "num_speculative_tokens": num_speculative_tokens,
        "prompt_lookup_max": 4,
        "enable_adaptive_verification": adaptive,
    }


def engine_kwargs(model: str, spec_method: str | None = None, **extra) -> dict:
    kwargs = {
        "model": model,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
        **extra,
    }
    if spec_method is not None:
        kwargs["speculative_config"] = speculative_block(method=spec_method)
    return kwargs
