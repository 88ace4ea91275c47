import requests

body = {
    "token_ids": [151644, 872, 198],
    "sampling_params": {"temperature": 0.01, "top_k": 5},
}
print(requests.post("http://localhost:8000/inference/v1/generate", json=body).json())
