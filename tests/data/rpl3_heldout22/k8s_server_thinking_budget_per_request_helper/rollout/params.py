def request_params(difficulty: str) -> dict:
    """Sampling params of one request; harder prompts may think longer."""
    return {
        "temperature": 1.0,
        "top_k": 50,
        "max_tokens": 8192,
        "thinking_token_budget": 4096 if difficulty == "hard" else 1024,
    }
