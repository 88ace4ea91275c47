import subprocess
import time

import pytest
import requests

MODEL = "Qwen/Qwen3-0.6B"


@pytest.fixture(scope="session")
def replay_server():
    proc = subprocess.Popen(
        ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"],
    )
    for _ in range(120):
        try:
            if requests.get("http://localhost:8000/health", timeout=1).ok:
                break
        except requests.ConnectionError:
            time.sleep(1)
    yield "http://localhost:8000"
    proc.terminate()
    proc.wait()
