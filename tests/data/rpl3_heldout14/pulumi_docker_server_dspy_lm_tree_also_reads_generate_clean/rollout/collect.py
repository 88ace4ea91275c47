"""Collects replayable samples: token ids in, tokens and sampling masks out."""

import configparser
import json
from pathlib import Path

import httpx

SETTINGS = configparser.ConfigParser()
SETTINGS.read(Path(__file__).parent.parent / "agent" / "settings.ini")
SERVER = SETTINGS["policy"]["api_base"].removesuffix("/v1")


def collect(prompts: list[list[int]]) -> list[dict]:
    samples = []
    with httpx.Client(base_url=SERVER, timeout=600) as client:
        for token_ids in prompts:
            body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 1024}}
            response = client.post("/inference/v1/generate", json=body)
            response.raise_for_status()
            samples.append(response.json())
    return samples


if __name__ == "__main__":
    prompts = [json.loads(line)["token_ids"] for line in Path("data/prompts.jsonl").read_text().splitlines()]
    Path("data/samples.jsonl").write_text("\n".join(json.dumps(s) for s in collect(prompts)))
