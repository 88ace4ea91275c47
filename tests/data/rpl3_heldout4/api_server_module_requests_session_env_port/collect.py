import os

import requests

session = requests.Session()
PORT = os.environ.get("VLLM_PORT", 8300)


def ask(messages):
    reply = session.post(f"http://localhost:{PORT}/v1/chat/completions", json={"model": "Qwen/Qwen2.5-7B-Instruct", "messages": messages, "top_k": 40})
    return reply.json()
