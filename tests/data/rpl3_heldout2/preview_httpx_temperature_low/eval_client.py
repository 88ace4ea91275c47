import httpx

client = httpx.Client(base_url="http://localhost:8000", timeout=300)


def near_greedy(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 0.005, "top_k": 20}}
    return client.post("/inference/v1/generate", json=body).json()
