MODEL = "Qwen/Qwen3-8B"
PORT = 8000
SCALE_OUT_FLAG = "--enable-scale-out"
