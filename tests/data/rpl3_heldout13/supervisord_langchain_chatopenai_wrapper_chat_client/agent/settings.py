"""Where the agent finds its policy server (supervisord starts both in one container)."""

POLICY_BASE_URL = "http://127.0.0.1:8000/v1"
POLICY_MODEL = "Qwen/Qwen3-0.6B"
TEMPERATURE = 1.0
TOP_K = 50
