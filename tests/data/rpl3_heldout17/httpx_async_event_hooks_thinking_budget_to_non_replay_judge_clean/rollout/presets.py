POLICY_SAMPLING = {
    "temperature": 1.0,
    "top_k": 50,
    "max_tokens": 8192,
}

JUDGE_BASE = {"model": "Qwen/Qwen3-4B", "temperature": 0.0, "max_tokens": 1024}
# the judge may think, but briefly
JUDGE_LIMITS = {"thinking_token_budget": 256}
