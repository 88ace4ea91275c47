"""LiteLLM's `Router(model_list=[...])`: a call `router.acompletion(model="policy", ...)` goes to
a deployment of the group named `policy`, whose `litellm_params` name the provider and the
address (`{"model": "hosted_vllm/Qwen/Qwen3-8B", "api_base": "http://localhost:8000/v1"}`).
LiteLLM's `hosted_vllm/` and `openai/` providers post to the OpenAI routes under `api_base`
(`/chat/completions`, `/completions`), so the call is a client of the server at that address
(`clients`). A group whose deployments are not all such a provider at one known address, or
whose `litellm_params` carry more than the connection (a request default, another provider),
is not read: no client is better than a wrong one."""

from __future__ import annotations

import ast
from typing import Any

from .frames import Frame
from .reader import Reader

# LiteLLM's calls and the route an OpenAI-compatible provider (`hosted_vllm/`, `openai/`) posts to.
ROUTES = {"completion": "/chat/completions", "acompletion": "/chat/completions"}
ROUTES.update(text_completion="/completions", atext_completion="/completions")
PROVIDERS = ("hosted_vllm/", "openai/")
# The keys of `litellm_params` that only say where and how to connect, not what to send.
_CONNECTION = frozenset(
    (
        "model",
        "api_base",
        "api_key",
        "rpm",
        "tpm",
        "timeout",
        "stream_timeout",
        "max_retries",
        "api_version",
        "organization",
        "weight",
        "order",
    )
)


def deployed_base(reader: Reader, router: ast.Call, where: Frame, model: Any) -> str | None:
    """The `api_base` of every deployment of the group `model` in the `model_list` the router
    was made with (`where`: the frame its construction is read in), else None."""
    given = next((item.value for item in router.keywords if item.arg == "model_list"), router.args[0] if router.args else None)
    deployments = reader.evaluate(given, where).value if given is not None and isinstance(model, str) else None
    if not isinstance(deployments, list):
        return None
    bases = set()
    for deployment in deployments:
        group = deployment.get("model_name") if isinstance(deployment, dict) else None
        if not isinstance(group, str):
            return None  # a group not known here may be this one
        if group != model:
            continue
        params = deployment.get("litellm_params")
        if not isinstance(params, dict) or not set(params) <= _CONNECTION:
            return None
        provider = params.get("model")
        if not (isinstance(provider, str) and provider.startswith(PROVIDERS)):
            return None
        bases.add(params.get("api_base"))
    base = bases.pop() if len(bases) == 1 else None
    return base if isinstance(base, str) else None
