"""Sampling settings of the agent's rollouts."""


def rollout_sampling_params(max_tokens: int) -> dict:
    return {
        "temperature": 0.6,
        "top_p": 0.95,
        "top_k": 20,
        "max_tokens": max_tokens,
        "thinking_token_budget": 2048,
    }
