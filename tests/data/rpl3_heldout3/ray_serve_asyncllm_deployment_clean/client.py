import requests


def generate(prompt: str, request_id: str) -> dict:
    response = requests.post("http://localhost:8000/generate", json={"prompt": prompt, "id": request_id})
    response.raise_for_status()
    return response.json()
