import os

import requests

VLLM_URL = os.environ["VLLM_URL"]


def work(job: dict) -> dict:
    body = {"token_ids": job["ids"], "sampling_params": {"temperature": 1.0, "top_k": 40, "max_tokens": 256}}
    return requests.post(f"{VLLM_URL}/inference/v1/generate", json=body, timeout=60).json()
