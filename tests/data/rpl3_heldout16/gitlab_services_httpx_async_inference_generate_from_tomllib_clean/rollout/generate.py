import argparse
import asyncio
import json

from rollout.clients import load_config, make_client

PROMPT_TOKEN_IDS = [[151644, 872, 198, 1298, 586], [151644, 872, 198, 10231, 508]]


async def sample(client, config: dict, token_ids: list[int]) -> dict:
    sampling = config["sampling"]
    response = await client.post(
        "/inference/v1/generate",
        json={
            "model": config["server"]["model"],
            "token_ids": token_ids,
            "sampling_params": {
                "temperature": sampling["temperature"],
                "top_k": sampling["top_k"],
                "max_tokens": sampling["max_tokens"],
                "logprobs": 1,
            },
        },
    )
    response.raise_for_status()
    return response.json()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="rollout.toml")
    config = load_config(parser.parse_args().config)
    async with make_client(config) as client:
        rows = await asyncio.gather(*(sample(client, config, ids) for ids in PROMPT_TOKEN_IDS))
    with open("rollouts.jsonl", "w") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)


if __name__ == "__main__":
    asyncio.run(main())
