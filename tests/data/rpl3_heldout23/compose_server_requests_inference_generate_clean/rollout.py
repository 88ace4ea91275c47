import requests

BASE_URL = "http://localhost:8000"
MODEL = "Qwen/Qwen3-8B"


def tokenize(prompt: str) -> list[int]:
    resp = requests.post(f"{BASE_URL}/tokenize", json={"model": MODEL, "prompt": prompt})
    resp.raise_for_status()
    return resp.json()["tokens"]


def generate(prompt: str) -> dict:
    payload = {
        "model": MODEL,
        "token_ids": tokenize(prompt),
        "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 1024},
    }
    resp = requests.post(f"{BASE_URL}/inference/v1/generate", json=payload)
    resp.raise_for_status()
    return resp.json()


if __name__ == "__main__":
    out = generate("What is 17 * 23?")
    print(out)
