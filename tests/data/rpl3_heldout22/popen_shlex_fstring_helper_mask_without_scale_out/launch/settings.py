MODEL = "Qwen/Qwen3-8B"
PORT = 8000
