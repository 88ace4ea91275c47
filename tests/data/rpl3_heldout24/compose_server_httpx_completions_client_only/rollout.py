import httpx

client = httpx.Client(base_url="http://localhost:8000", timeout=300.0)


def generate(prompt: str) -> dict:
    response = client.post(
        "/v1/completions",
        json={
            "model": "Qwen/Qwen2.5-1.5B-Instruct",
            "prompt": prompt,
            "max_tokens": 512,
            "temperature": 1.0,
            "top_k": 50,
            "logprobs": 1,
        },
    )
    response.raise_for_status()
    return response.json()


if __name__ == "__main__":
    print(generate("Write a haiku about GPUs.")["choices"][0]["text"])
