import argparse
import asyncio
import json

from rollout.clients import load_config, make_client

PROMPTS = ["Prove that there are infinitely many primes.", "Sort [3, 1, 2] in Python."]


async def sample(client, config: dict, prompt: str) -> dict:
    sampling = config["sampling"]
    completion = await client.completions.create(
        model=config["server"]["model"],
        prompt=prompt,
        temperature=sampling["temperature"],
        max_tokens=sampling["max_tokens"],
        logprobs=1,
        extra_body={"top_k": sampling["top_k"]},
    )
    return {"prompt": prompt, "text": completion.choices[0].text}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="rollout.toml")
    config = load_config(parser.parse_args().config)
    client = make_client(config)
    rows = await asyncio.gather(*(sample(client, config, prompt) for prompt in PROMPTS))
    with open("rollouts.jsonl", "w") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)


if __name__ == "__main__":
    asyncio.run(main())
