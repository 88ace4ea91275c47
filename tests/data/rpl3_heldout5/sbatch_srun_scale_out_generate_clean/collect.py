import requests

URL = "http://localhost:8000/inference/v1/generate"


def collect(batch: list[list[int]]) -> list[dict]:
    out = []
    for ids in batch:
        body = {"token_ids": ids, "sampling_params": {"temperature": 0.8, "top_k": 64, "top_p": 0.95, "max_tokens": 1024}}
        out.append(requests.post(URL, json=body, timeout=600).json())
    return out
