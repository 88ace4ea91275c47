import logging

import httpx

log = logging.getLogger("rollout.http")


async def log_request(request: httpx.Request) -> None:
    log.debug("-> %s %s", request.method, request.url)


async def raise_on_4xx_5xx(response: httpx.Response) -> None:
    response.raise_for_status()


EVENT_HOOKS = {"request": [log_request], "response": [raise_on_4xx_5xx]}
