"""Collects short-thinking rollouts for the replay trainer."""

import functools
import json
import sys

import httpx

from rollout.requests import generate

short_thinking = functools.partial(generate, max_tokens=4096, thinking_token_budget=1024)


def main(prompts_path: str, out_path: str) -> None:
    with httpx.Client(timeout=900) as client, open(prompts_path) as prompts, open(out_path, "w") as out:
        for line in prompts:
            sample = short_thinking(client, json.loads(line)["token_ids"])
            out.write(json.dumps(sample) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
