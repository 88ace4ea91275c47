# Imitates NovaSky-AI/SkyRL's vLLM server launch for token-in/token-out rollouts: `vllm serve` in
# a subprocess with the scale-out routes (/inference/v1/generate returns the sampling masks).
import subprocess

from agent.settings import MODEL, PORT


def start_server() -> subprocess.Popen:
    cmd = [
        "vllm", "serve", MODEL,
        "--port", str(PORT),
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
        "--enable-scale-out",
        "--gpu-memory-utilization", "0.85",
    ]
    return subprocess.Popen(cmd)
