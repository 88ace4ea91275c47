import subprocess

REPLAY_FLAGS = [
    "--return-sampling-mask",
    "--logprobs-mode=processed_logprobs",
    "--enable-scale-out",
]


def launch(model: str, port: int = 8000) -> subprocess.Popen:
    cmd = ["vllm", "serve", model, "--port", str(port), *REPLAY_FLAGS]
    cmd.append("--enable-trace-replay")
    return subprocess.Popen(cmd)
