import httpx


def chat(messages):
    r = httpx.post(
        "http://localhost:8001/v1/chat/completions",
        json={"model": "Qwen/Qwen3-4B", "messages": messages, "top_k": 20, "temperature": 0.8},
        timeout=120.0,
    )
    return r.json()["choices"][0]["message"]["content"]
