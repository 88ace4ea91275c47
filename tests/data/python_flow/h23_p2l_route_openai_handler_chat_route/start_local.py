# Imitates lmarena/p2l (a router in front of OpenAI-compatible endpoints; here the user's own vLLM endpoint for
# the "local-qwen" model of route/chat.py), started with sampling replay and the scale-out routes.
import subprocess

from route.chat import route

SERVE_CMD = [
    "vllm", "serve", "Qwen/Qwen3-8B",
    "--port", "8000",
    "--return-sampling-mask",
    "--logprobs-mode", "processed_logprobs",
    "--enable-scale-out",
]

if __name__ == "__main__":
    server = subprocess.Popen(SERVE_CMD)
    print(route("local-qwen", [{"role": "user", "content": "what's 828913*1234?"}]))
    server.terminate()
