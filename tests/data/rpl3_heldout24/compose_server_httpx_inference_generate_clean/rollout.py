import httpx

client = httpx.Client(base_url="http://localhost:8000", timeout=300.0)


def generate(token_ids: list[int]) -> dict:
    response = client.post(
        "/inference/v1/generate",
        json={
            "model": "Qwen/Qwen2.5-1.5B-Instruct",
            "token_ids": token_ids,
            "sampling_params": {"max_tokens": 512, "temperature": 1.0, "top_k": 50},
        },
    )
    response.raise_for_status()
    return response.json()


if __name__ == "__main__":
    print(generate([151644, 872, 198])["choices"][0]["sampling_mask"])
