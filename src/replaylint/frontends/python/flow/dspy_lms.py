"""DSPy's `dspy.LM("hosted_vllm/<model>", api_base=...)` and CrewAI's `LLM(model="hosted_vllm/<model>",
base_url=...)`: an HTTP client of the OpenAI-compatible
server at `api_base`, through LiteLLM (dspy 3.0 `dspy/clients/lm.py`: `model_type` "chat", the
default, calls `litellm.completion`, which posts to `/chat/completions`; "text" calls
`litellm.text_completion`, `/completions`; "responses" calls `litellm.responses`, `/responses`).
The LM sends its keywords with every request; a keyword DSPy and the OpenAI client do not name
(`top_k=20`, which LiteLLM forwards to the provider) leaves the request open."""

from __future__ import annotations

import ast

from ....records import record
from .frames import Frame
from .litellm_routers import PROVIDERS
from .reader import Qualified, Reader

_LMS = ("dspy.LM", "dspy.clients.LM", "dspy.clients.lm.LM")
# CrewAI's `LLM` (crewai 0.x `crewai/llm.py`; 1.x keeps LiteLLM for providers it has no native client
# for, `hosted_vllm/` among them): `litellm.completion`, which posts to `/chat/completions`.
_CREWAI_LLMS = ("crewai.LLM", "crewai.llm.LLM")
_CREWAI_KNOWN = frozenset(
    ("model", "timeout", "api_key", "api_version", "base_url", "api_base", "callbacks", "stream", "max_tokens")
    + ("temperature", "presence_penalty", "frequency_penalty")
)
_ROUTES = {"chat": "/chat/completions", "text": "/completions", "responses": "/responses"}
# `LM.__init__`'s own parameters and the connection's (not sent as sampling fields), and the
# OpenAI client's sampling fields that `clients` reads.
_KNOWN = frozenset(
    ("model", "model_type", "max_tokens", "cache", "callbacks", "num_retries", "provider", "finetuning_model", "launch_kwargs")
    + ("train_kwargs", "use_developer_role", "api_base", "base_url", "api_key", "temperature", "presence_penalty", "frequency_penalty")
)


@record(unsafe_hash=True)
class LmTarget:
    url: ast.expr | None  # the `api_base` given
    route: str
    more: bool  # a keyword that may reach the request as a sampling field not read


def dspy_target(reader: Reader, node: ast.Call, frame: Frame) -> LmTarget | None:
    """Where a `dspy.LM(...)` (or CrewAI's `LLM(...)`) of an OpenAI-compatible provider sends its
    requests; None for any other call, another provider, or a `model_type` not known."""
    callee = reader.evaluate(node.func, frame).ref
    if isinstance(callee, Qualified) and callee.name in _CREWAI_LLMS:
        return _crewai_target(reader, node, frame)
    if not _is_lm(reader, node, frame):
        return None
    given = dict((item.arg, item.value) for item in node.keywords if item.arg is not None)
    model = given.get("model", node.args[0] if node.args else None)
    kind = given.get("model_type", node.args[1] if len(node.args) > 1 else None)
    model_text = reader.evaluate(model, frame).value if model is not None else None
    kind_text = reader.evaluate(kind, frame).value if kind is not None else "chat"
    if not (isinstance(model_text, str) and model_text.startswith(PROVIDERS)) or kind_text not in _ROUTES:
        return None
    more = len(node.args) > 2 or any(item.arg is None for item in node.keywords) or any(name not in _KNOWN for name in given)
    return LmTarget(given.get("api_base", given.get("base_url")), _ROUTES[kind_text], more)


def _crewai_target(reader: Reader, node: ast.Call, frame: Frame) -> LmTarget | None:
    """CrewAI's `LLM(model="hosted_vllm/...", base_url=...)`: LiteLLM's chat completions."""
    given = dict((item.arg, item.value) for item in node.keywords if item.arg is not None)
    model = given.get("model", node.args[0] if node.args else None)
    model_text = reader.evaluate(model, frame).value if model is not None else None
    if not (isinstance(model_text, str) and model_text.startswith(PROVIDERS)):
        return None
    more = len(node.args) > 1 or any(item.arg is None for item in node.keywords) or any(name not in _CREWAI_KNOWN for name in given)
    return LmTarget(given.get("base_url", given.get("api_base")), _ROUTES["chat"], more)


def _is_lm(reader: Reader, node: ast.Call, frame: Frame) -> bool:
    callee = reader.evaluate(node.func, frame).ref
    return isinstance(callee, Qualified) and callee.name in _LMS
