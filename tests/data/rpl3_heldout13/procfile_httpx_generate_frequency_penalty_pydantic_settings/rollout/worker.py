import json
import sys

import httpx

from rollout.settings import settings


def sampling_params() -> dict:
    return {
        "temperature": settings.temperature,
        "top_k": settings.top_k,
        "frequency_penalty": settings.frequency_penalty,
        "max_tokens": settings.max_tokens,
        "logprobs": 0,
    }


def main() -> None:
    with httpx.Client(base_url=settings.server_url, timeout=300) as client:
        for line in sys.stdin:
            token_ids = json.loads(line)["token_ids"]
            response = client.post("/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": sampling_params()})
            response.raise_for_status()
            print(json.dumps(response.json()))


if __name__ == "__main__":
    main()
