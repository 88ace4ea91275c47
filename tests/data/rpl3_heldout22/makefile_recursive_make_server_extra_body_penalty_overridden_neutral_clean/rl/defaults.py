"""Request defaults shared by rollouts and evaluation."""

DEFAULT_EXTRA_BODY = {
    "top_k": 50,
    "repetition_penalty": 1.0,
    "frequency_penalty": 0.2,
}
