"""Samples prompts from the queue with the replay server and keeps the masks."""

import json
import os
import tomllib
import uuid
from pathlib import Path

import httpx

with open(os.environ.get("ROLLOUT_SETTINGS", "config/rollout.toml"), "rb") as handle:
    SETTINGS = tomllib.load(handle)


def sample(client: httpx.Client, token_ids: list[int]) -> dict:
    body = {
        "request_id": uuid.uuid4().hex,
        "token_ids": token_ids,
        "sampling_params": dict(SETTINGS["sampling"]),
    }
    response = client.post("/inference/v1/generate", json=body)
    response.raise_for_status()
    return response.json()


def main() -> None:
    out = Path(SETTINGS["output"]["path"])
    out.mkdir(parents=True, exist_ok=True)
    server = SETTINGS["server"]
    with httpx.Client(base_url=server["base_url"], timeout=server["timeout"]) as client:
        for line in Path("/data/prompts.jsonl").read_text().splitlines():
            token_ids = json.loads(line)["token_ids"]
            (out / f"{uuid.uuid4().hex}.json").write_text(json.dumps(sample(client, token_ids)))


if __name__ == "__main__":
    main()
