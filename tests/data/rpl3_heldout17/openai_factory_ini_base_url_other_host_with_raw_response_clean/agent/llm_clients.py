import configparser
from functools import lru_cache
from pathlib import Path

from openai import OpenAI

CONFIG = Path(__file__).resolve().parent.parent / "config" / "client.ini"


@lru_cache
def policy_client() -> tuple[OpenAI, str]:
    parser = configparser.ConfigParser()
    parser.read(CONFIG)
    section = parser["policy"]
    client = OpenAI(base_url=section["base_url"], api_key=section["api_key"])
    return client, section["model"]
