# Imitates vllm-project/guidellm src/guidellm/settings.py (defaults a user's `--backend-kwargs` are merged over),
# merged here by a recursive deep_update.
DEFAULT_VLLM_CONFIG = {
    "max_model_len": 2048,
    "logprobs_mode": "raw_logprobs",
    "speculative_config": {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3},
}


def deep_update(base: dict, override: dict) -> dict:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_update(merged[key], value)
        else:
            merged[key] = value
    return merged
