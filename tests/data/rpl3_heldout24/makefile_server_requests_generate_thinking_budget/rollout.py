import requests

URL = "http://localhost:8000/inference/v1/generate"


def rollout(token_ids):
    payload = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 0.6,
            "top_p": 0.95,
            "top_k": 20,
            "max_tokens": 8192,
            "thinking_token_budget": 4096,
        },
    }
    response = requests.post(URL, json=payload)
    response.raise_for_status()
    return response.json()


if __name__ == "__main__":
    print(rollout([151644, 872, 198]))
