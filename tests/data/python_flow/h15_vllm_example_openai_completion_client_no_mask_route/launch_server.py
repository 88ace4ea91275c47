# Imitates vllm-project/vllm examples/online_serving/openai_completion_client.py (the server it expects, started from Python)
import subprocess
import time

MODEL = "Qwen/Qwen2.5-1.5B-Instruct"
SERVE_ARGS = ["--port", "8000", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]


def start_server() -> subprocess.Popen:
    server = subprocess.Popen(["vllm", "serve", MODEL, *SERVE_ARGS, "--enable-scale-out"])
    time.sleep(60)
    return server
