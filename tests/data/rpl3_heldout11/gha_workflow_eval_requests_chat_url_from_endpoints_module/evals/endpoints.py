"""Where the eval talks to the server the workflow starts."""

SERVER = "http://localhost:8000"
CHAT_URL = f"{SERVER}/v1/chat/completions"
MODEL = "Qwen/Qwen3-0.6B"
