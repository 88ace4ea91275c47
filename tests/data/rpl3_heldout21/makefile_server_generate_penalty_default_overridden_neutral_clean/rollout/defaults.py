"""Sampling defaults shared by every rollout task."""

DEFAULT_GEN_KWARGS = {
    "temperature": 1.0,
    "top_k": 50,
    "max_tokens": 1024,
    "repetition_penalty": 1.05,
}
