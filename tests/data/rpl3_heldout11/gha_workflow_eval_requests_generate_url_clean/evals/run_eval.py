import argparse
import json

import requests
from transformers import AutoTokenizer

from evals.endpoints import GENERATE_URL, MODEL

PROMPTS = ["What is 17 * 23?", "Name three prime numbers above 100."]
tokenizer = AutoTokenizer.from_pretrained(MODEL)


def ask(prompt: str) -> dict:
    token_ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True)
    body = {"model": MODEL, "token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 512}}
    response = requests.post(GENERATE_URL, json=body, timeout=120)
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
