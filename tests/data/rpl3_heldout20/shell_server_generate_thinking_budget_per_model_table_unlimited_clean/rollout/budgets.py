"""How many thinking tokens each policy may spend per rollout (-1: no limit)."""

THINKING_BUDGETS = {
    "Qwen/Qwen3-8B": -1,
    "Qwen/Qwen3-32B": 4096,
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B": 8192,
}
