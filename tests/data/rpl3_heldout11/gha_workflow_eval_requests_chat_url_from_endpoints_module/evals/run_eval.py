import argparse
import json

import requests

from evals.endpoints import CHAT_URL, MODEL

PROMPTS = ["What is 17 * 23?", "Name three prime numbers above 100."]


def ask(prompt: str) -> dict:
    body = {"model": MODEL, "messages": [{"role": "user", "content": prompt}], "temperature": 1.0, "top_k": 50, "max_tokens": 512}
    response = requests.post(CHAT_URL, json=body, timeout=120)
    response.raise_for_status()
    return response.json()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="results.jsonl")
    args = parser.parse_args()
    with open(args.out, "w") as out:
        for prompt in PROMPTS:
            out.write(json.dumps(ask(prompt)) + "\n")


if __name__ == "__main__":
    main()
