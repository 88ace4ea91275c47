import requests


def generate(token_ids):
    params = {"temperature": 1.0, "top_p": 0.95, "top_k": 20}
    return requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": params}).json()
