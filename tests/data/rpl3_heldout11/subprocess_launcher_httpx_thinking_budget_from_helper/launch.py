"""Start the reasoning policy server, then the agent rollouts against it."""

import subprocess
import sys

MODEL = "Qwen/Qwen3-4B"


def serve_command() -> list[str]:
    return [
        "vllm",
        "serve",
        MODEL,
        "--reasoning-parser",
        "qwen3",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
        "--port",
        "8000",
    ]


if __name__ == "__main__":
    server = subprocess.Popen(serve_command())
    try:
        subprocess.run([sys.executable, "-m", "agent.rollout"], check=True)
    finally:
        server.terminate()
