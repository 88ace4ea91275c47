BASE_SAMPLING = {
    "temperature": 1.0,
    "top_k": 50,
    "max_tokens": 8192,
}

# keep long chains of thought from eating the rollout budget
REASONING_LIMITS = {
    "thinking_token_budget": 2048,
}
