# Imitates vllm-project/vllm examples/online_serving/ (a requests client, here of the scale-out /inference/v1/generate route)
import subprocess
import time

import requests

MODEL = "Qwen/Qwen2.5-1.5B-Instruct"
BASE_URL = "http://localhost:8000"
SERVE_CMD = " ".join(
    ["vllm serve", MODEL, "--port 8000", "--return-sampling-mask", "--logprobs-mode processed_logprobs", "--enable-scale-out"]
)


def main():
    server = subprocess.Popen(SERVE_CMD, shell=True)
    time.sleep(60)
    payload = {
        "model": MODEL,
        "token_ids": [9707, 11, 847, 829, 374],
        "sampling_params": {"temperature": 0.8, "top_k": 20, "max_tokens": 64},
    }
    response = requests.post(f"{BASE_URL}/inference/v1/generate", json=payload, timeout=120)
    response.raise_for_status()
    print(response.json())
    server.terminate()


if __name__ == "__main__":
    main()
