# Imitates ScalingIntelligence/large_language_monkeys llmonk/utils.py (a context manager that starts the server and waits).
import subprocess
import time
from contextlib import contextmanager

import requests


@contextmanager
def vllm_manager(config):
    command = [
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        config.model,
        "--port",
        str(config.vllm_port),
        "--tensor-parallel-size",
        str(config.num_gpus),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
    proc = subprocess.Popen(command)
    try:
        while True:
            try:
                if requests.get(f"http://localhost:{config.vllm_port}/health").status_code == 200:
                    break
            except requests.ConnectionError:
                time.sleep(5)
        yield
    finally:
        proc.kill()
