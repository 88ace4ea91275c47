import os

from openai import OpenAI


def make_client() -> OpenAI:
    return OpenAI(base_url=os.environ["REPLAY_BASE_URL"], api_key="EMPTY")
