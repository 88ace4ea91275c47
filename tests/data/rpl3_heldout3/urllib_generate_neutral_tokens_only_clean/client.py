import json
import urllib.request

SAMPLING = {
    "temperature": 1.0,
    "top_k": 32,
    "repetition_penalty": 1.0,
    "frequency_penalty": 0,
    "presence_penalty": 0.0,
    "logit_bias": None,
}


def generate(token_ids: list[int]) -> dict:
    payload = json.dumps({"token_ids": token_ids, "sampling_params": SAMPLING}).encode()
    request = urllib.request.Request("http://localhost:8000/inference/v1/generate", data=payload, method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())
