import argparse
import json

import requests
from transformers import AutoTokenizer

from settings import RolloutSettings

SETTINGS = RolloutSettings()


def sampling_params(s: RolloutSettings) -> dict:
    return {
        "temperature": s.temperature,
        "top_k": s.top_k,
        "max_tokens": s.max_tokens,
        "logprobs": 0,
        "thinking_token_budget": s.thinking_token_budget,
    }


def generate(token_ids: list[int]) -> dict:
    response = requests.post(
        f"{SETTINGS.server_url}/inference/v1/generate",
        json={"token_ids": token_ids, "sampling_params": sampling_params(SETTINGS)},
        timeout=900,
    )
    response.raise_for_status()
    return response.json()["choices"][0]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen3-8B")
    with open("prompts.jsonl") as f, open(args.out, "w") as out:
        for line in f:
            prompt = json.loads(line)["prompt"]
            ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True)
            out.write(json.dumps(generate(ids)) + "\n")
