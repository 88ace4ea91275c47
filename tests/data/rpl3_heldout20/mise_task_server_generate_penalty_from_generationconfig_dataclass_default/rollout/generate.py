"""Ask the replay server of `mise run serve` for tokens and their sampling masks."""

from dataclasses import asdict

import httpx

from rollout.config import GenerationConfig

client = httpx.Client(base_url="http://127.0.0.1:8000", timeout=300)


def generate(token_ids: list[int], config: GenerationConfig = GenerationConfig()) -> dict:
    body = {"token_ids": token_ids, "sampling_params": asdict(config)}
    response = client.post("/inference/v1/generate", json=body)
    response.raise_for_status()
    return response.json()


if __name__ == "__main__":
    print(generate([151644, 872, 198]))
