import aiohttp

POLICY_HOST = "127.0.0.1"
POLICY_PORT = 8000


def policy_session() -> aiohttp.ClientSession:
    """One session per rollout worker, rooted at the policy server."""
    return aiohttp.ClientSession(base_url=f"http://{POLICY_HOST}:{POLICY_PORT}", timeout=aiohttp.ClientTimeout(total=600))
