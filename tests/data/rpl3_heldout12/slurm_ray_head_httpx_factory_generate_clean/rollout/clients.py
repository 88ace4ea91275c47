"""Clients shared by the rollout jobs: the policy server runs on the SLURM head node."""

import httpx

HEAD_HOST = "localhost"
SERVE_PORT = 8000


def make_policy_client(timeout: float = 600.0) -> httpx.Client:
    return httpx.Client(base_url=f"http://{HEAD_HOST}:{SERVE_PORT}", timeout=timeout)
