import requests

URL = "http://policy-server:8000/v1/completions"


def sample(prompt: str) -> dict:
    payload = {"model": "Qwen/Qwen3-4B", "prompt": prompt, "temperature": 1.0, "top_k": 20, "max_tokens": 512}
    reply = requests.post(URL, json=payload, timeout=60)
    reply.raise_for_status()
    return reply.json()
