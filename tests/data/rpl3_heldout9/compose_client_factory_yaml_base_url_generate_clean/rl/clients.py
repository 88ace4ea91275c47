"""Clients of the services the trainer talks to."""

import httpx


def make_policy_client(cfg: dict) -> httpx.Client:
    return httpx.Client(base_url=cfg["policy"]["base_url"], timeout=600)
