import os

import httpx


def make_client() -> httpx.Client:
    return httpx.Client(base_url=os.environ["REPLAY_SERVER"], timeout=600)
