"""Start the policy server next to the trainer (Popen + shlex, flags from a settings module)."""

import shlex
import subprocess

from launch.settings import MODEL, PORT, SCALE_OUT_FLAG


def build_command(model: str, port: int) -> str:
    return (
        f"vllm serve {model} --port {port} --max-model-len 8192 "
        f"--return-sampling-mask --logprobs-mode processed_logprobs {SCALE_OUT_FLAG}"
    )


def start_server() -> subprocess.Popen:
    cmd = build_command(MODEL, PORT)
    return subprocess.Popen(shlex.split(cmd))


if __name__ == "__main__":
    start_server().wait()
