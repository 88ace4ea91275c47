import json
import urllib.request

URL = "http://127.0.0.1:8200/v1/chat/completions"


def ask(prompt: str) -> dict:
    body = {"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": prompt}], "top_k": 20}
    request = urllib.request.Request(URL, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.load(response)
