import tomllib
from pathlib import Path

import httpx


def load_config(path: str) -> dict:
    with Path(path).open("rb") as handle:
        return tomllib.load(handle)


def make_client(config: dict) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=config["server"]["base_url"], timeout=120.0)
