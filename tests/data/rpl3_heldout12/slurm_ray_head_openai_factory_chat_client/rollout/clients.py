"""Clients shared by the rollout jobs: the policy server runs on the SLURM head node."""

from openai import OpenAI

HEAD_HOST = "localhost"
SERVE_PORT = 8000


def make_policy_client(timeout: float = 600.0) -> OpenAI:
    return OpenAI(base_url=f"http://{HEAD_HOST}:{SERVE_PORT}/v1", api_key="EMPTY", timeout=timeout)
