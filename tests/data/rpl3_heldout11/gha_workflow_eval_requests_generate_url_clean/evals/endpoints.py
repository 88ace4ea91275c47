"""Where the eval talks to the server the workflow starts."""

SERVER = "http://localhost:8000"
GENERATE_URL = f"{SERVER}/inference/v1/generate"
MODEL = "Qwen/Qwen3-0.6B"
