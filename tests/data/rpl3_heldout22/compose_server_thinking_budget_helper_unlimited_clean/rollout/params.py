UNLIMITED = -1


def request_params(max_tokens: int = 8192) -> dict:
    """Sampling params of one request; replay needs the whole reasoning, so no thinking budget."""
    return {
        "temperature": 1.0,
        "top_k": 50,
        "max_tokens": max_tokens,
        "thinking_token_budget": UNLIMITED,
    }
