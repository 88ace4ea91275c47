import tomllib
from pathlib import Path

import openai


def load_config(path: str) -> dict:
    with Path(path).open("rb") as handle:
        return tomllib.load(handle)


def make_client(config: dict) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=config["server"]["base_url"], api_key="EMPTY")
