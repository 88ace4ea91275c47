"""Starts an OpenAI-compatible replay server as a child process."""

import os
import subprocess

SERVER = ["vllm", "serve", "Qwen/Qwen3-8B", "--port", "8000"]


def start(extra_env: dict[str, str] | None = None) -> subprocess.Popen:
    cmd = [*SERVER, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    cmd += ["--enable-dbo"]
    return subprocess.Popen(cmd, env={**os.environ, "VLLM_USE_V2_MODEL_RUNNER": "0"})
