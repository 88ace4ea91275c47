import os

import requests

SERVER = "http://localhost:8000"
THINK_BUDGET = int(os.environ.get("THINK_BUDGET", "4096"))
MAX_TOKENS = THINK_BUDGET + 1024


def generate(prompt_ids: list[int]) -> dict:
    body = {
        "token_ids": prompt_ids,
        "sampling_params": {
            "temperature": 0.6,
            "top_p": 0.95,
            "top_k": 20,
            "max_tokens": MAX_TOKENS,
            "thinking_token_budget": THINK_BUDGET,
            "logprobs": 0,
        },
    }
    r = requests.post(f"{SERVER}/inference/v1/generate", json=body, timeout=900)
    r.raise_for_status()
    return r.json()["choices"][0]


if __name__ == "__main__":
    import json
    import sys

    for line in sys.stdin:
        print(json.dumps(generate(json.loads(line)["token_ids"])))
