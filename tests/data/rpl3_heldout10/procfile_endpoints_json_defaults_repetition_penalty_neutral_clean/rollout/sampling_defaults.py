"""Sampling settings shared by every rollout worker."""

DEFAULT_SAMPLING = {
    "temperature": 1.0,
    "top_k": 64,
    "max_tokens": 1024,
    "repetition_penalty": 1.0,
    "logprobs": 1,
}
