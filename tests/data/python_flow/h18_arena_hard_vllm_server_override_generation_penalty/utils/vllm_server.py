# Imitates lmarena/arena-hard-auto utils/sglang_server.py (`launch_server` + `wait_for_server` around a subprocess), written for vLLM with replay
import json
import subprocess
import time

import requests

GENERATION_OVERRIDES = {
    "repetition_penalty": 1.1,  # expect: RPL302
    "top_k": 20,
}


def launch_server(model_path: str, port: int = 8000, tp: int = 1):
    command = [
        "vllm",
        "serve",
        model_path,
        "--port",
        str(port),
        "--tensor-parallel-size",
        str(tp),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
        "--override-generation-config",
        json.dumps(GENERATION_OVERRIDES),
    ]
    process = subprocess.Popen(command)
    wait_for_server(f"http://localhost:{port}")
    return process


def wait_for_server(base_url: str, timeout: int = 600):
    start_time = time.time()
    while True:
        try:
            response = requests.get(f"{base_url}/health", timeout=5)
            if response.status_code == 200:
                return
        except requests.exceptions.RequestException:
            pass
        if time.time() - start_time > timeout:
            raise TimeoutError("Server did not become ready within timeout period")
        time.sleep(5)


if __name__ == "__main__":
    proc = launch_server("Qwen/Qwen2.5-7B-Instruct")
    proc.wait()
