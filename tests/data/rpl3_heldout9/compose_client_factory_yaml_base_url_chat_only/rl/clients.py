"""Clients of the services the trainer talks to."""

from openai import OpenAI


def make_policy_client(cfg: dict) -> OpenAI:
    return OpenAI(base_url=cfg["policy"]["base_url"], api_key="EMPTY", timeout=600)
