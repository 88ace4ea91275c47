import requests

VOCAB_SIZE = 32000


def sample(token_ids):
    params = {"temperature": 1.0, "top_k": VOCAB_SIZE, "max_tokens": 256}
    return requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": params}).json()
