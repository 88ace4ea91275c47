"""Start a replay server on the local Llama 3.1 checkpoint and collect samples with their masks."""

import subprocess
import time

import requests

CKPT = "./ckpt/llama-3.1-8b-instruct"
URL = "http://127.0.0.1:8000"


def start_server() -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            "vllm",
            "serve",
            CKPT,
            "--port",
            "8000",
            "--return-sampling-mask",
            "--logprobs-mode",
            "processed_logprobs",
            "--enable-scale-out",
        ]
    )
    for _ in range(600):
        try:
            if requests.get(f"{URL}/health", timeout=2).ok:
                return proc
        except requests.ConnectionError:
            pass
        time.sleep(1)
    proc.terminate()
    raise RuntimeError("vLLM did not come up")


def collect(session: requests.Session, prompt_ids: list[int]) -> dict:
    body = {
        "token_ids": prompt_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 131072,
            "max_tokens": 512,
            "logprobs": 0,
        },
    }
    resp = session.post(f"{URL}/inference/v1/generate", json=body, timeout=600)
    resp.raise_for_status()
    return resp.json()


if __name__ == "__main__":
    server = start_server()
    try:
        with requests.Session() as session:
            print(collect(session, [128000, 128006, 882, 128007, 271, 9906, 128009]))
    finally:
        server.terminate()
