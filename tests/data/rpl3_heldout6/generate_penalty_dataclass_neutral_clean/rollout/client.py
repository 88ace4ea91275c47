import httpx

from rollout.config import SamplingConfig

URL = "http://localhost:8000/inference/v1/generate"


async def generate(client: httpx.AsyncClient, prompt_ids: list[int], cfg: SamplingConfig) -> dict:
    body = {
        "token_ids": prompt_ids,
        "sampling_params": {
            "temperature": cfg.temperature,
            "top_k": cfg.top_k,
            "top_p": cfg.top_p,
            "max_tokens": cfg.max_tokens,
            "repetition_penalty": cfg.repetition_penalty,
            "logprobs": 0,
        },
    }
    resp = await client.post(URL, json=body, timeout=None)
    resp.raise_for_status()
    return resp.json()["choices"][0]


async def collect(batch: list[list[int]]) -> list[dict]:
    cfg = SamplingConfig()
    async with httpx.AsyncClient() as client:
        return [await generate(client, ids, cfg) for ids in batch]


if __name__ == "__main__":
    import asyncio
    import json
    import sys

    prompts = [json.loads(line)["token_ids"] for line in sys.stdin]
    for choice in asyncio.run(collect(prompts)):
        print(json.dumps(choice))
