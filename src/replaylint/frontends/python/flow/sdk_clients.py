"""HTTP clients of a vLLM server that a library wraps: LangChain's `VLLMOpenAI` (completions) and
`ChatOpenAI` (chat) made with the server's address (`openai_api_base=`, `base_url=`), and
LiteLLM's `completion`/`acompletion` (chat) and `text_completion`/`atext_completion`
(completions) of a `hosted_vllm/` or `openai/` model given `api_base=` (or `base_url=`), and the
standard library's `urllib.request.Request(url, data=json.dumps(body).encode())` (a POST when it
has data, `urlopen` sends it). Each is read as the
request it sends (`clients.Client`): the route, and the sampling fields written in the call (the
OpenAI ones, and the keys of `model_kwargs` and `extra_body`, which the libraries put in the body)."""

from __future__ import annotations

import ast
from typing import Iterator

from ....model import UNKNOWN, Request
from .bodies import address_condition, bound_once, text
from .callsites import calls
from .clients import OPENAI_FIELDS, Client, keyword, posted, setting_of, url_address
from .frames import Frame
from .module import Module
from .reader import Reader

WORDS = ("VLLMOpenAI(", "ChatOpenAI(", "completion(", "Request(")
# LangChain's classes: the route each posts to under its base URL, and the keywords naming it.
_LANGCHAIN = {"VLLMOpenAI": "/completions", "ChatOpenAI": "/chat/completions"}
_LANGCHAIN_URLS = ("openai_api_base", "base_url")
# LiteLLM's calls and the route an OpenAI-compatible provider (`hosted_vllm/`, `openai/`) posts to.
_LITELLM = {"completion": "/chat/completions", "acompletion": "/chat/completions"}
_LITELLM.update(text_completion="/completions", atext_completion="/completions")
_LITELLM_PROVIDERS = ("hosted_vllm/", "openai/")


def sdk_clients(reader: Reader, module: Module) -> Iterator[Client]:
    for call in calls(module, WORDS):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        found = (
            _langchain(reader, call.node, frame) or _litellm(reader, call.node, frame, module) or _urllib(reader, call.node, frame, module)
        )
        if found is not None:
            yield found


def _langchain(reader: Reader, node: ast.Call, frame: Frame) -> Client | None:
    route = _LANGCHAIN.get(_name(node))
    url = next((keyword(node, name) for name in _LANGCHAIN_URLS if keyword(node, name) is not None), None)
    return _client(reader, node, frame, url, route, ("model_kwargs", "extra_body")) if route is not None else None


def _litellm(reader: Reader, node: ast.Call, frame: Frame, module: Module) -> Client | None:
    route = _LITELLM.get(_name(node))
    func = node.func
    ours = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "litellm"
    ours = ours or (isinstance(func, ast.Name) and "from litellm import" in module.source.text)
    model = text(reader, keyword(node, "model"), frame)
    if route is None or not ours or not (isinstance(model, str) and model.startswith(_LITELLM_PROVIDERS)):
        return None
    return _client(reader, node, frame, keyword(node, "api_base") or keyword(node, "base_url"), route, ("extra_body",))


def _urllib(reader: Reader, node: ast.Call, frame: Frame, module: Module) -> Client | None:
    func = node.func
    ours = isinstance(func, ast.Attribute) and func.attr == "Request" and ast.unparse(func.value) in ("urllib.request", "request")
    ours = ours or (isinstance(func, ast.Name) and func.id == "Request" and "from urllib.request import" in module.source.text)
    data = keyword(node, "data") or (node.args[1] if len(node.args) > 1 else None)
    method = text(reader, keyword(node, "method"), frame) if keyword(node, "method") is not None else "POST"
    url = keyword(node, "url") or (node.args[0] if node.args else None)
    address = url_address(text(reader, url, frame)) if ours else None
    if address is None or data is None or not isinstance(method, str) or method.upper() != "POST":
        return None
    return posted(reader, node, _dumped(data, frame), frame, address, address_condition(url, frame))


def _dumped(data: ast.expr, frame: Frame) -> ast.expr | None:
    """The body `json.dumps(body).encode()` (or a name bound once to it) serialises."""
    if isinstance(data, ast.Name):
        data = bound_once(frame, data.id) or data
    if isinstance(data, ast.Call) and isinstance(data.func, ast.Attribute) and data.func.attr == "encode":
        data = data.func.value
    dumps = isinstance(data, ast.Call) and isinstance(data.func, ast.Attribute) and data.func.attr == "dumps"
    return data.args[0] if dumps and len(data.args) == 1 else None  # type: ignore[union-attr]


def _client(reader: Reader, node: ast.Call, frame: Frame, url: ast.expr | None, route: str, extras: tuple[str, ...]) -> Client | None:
    address = url_address(text(reader, url, frame)) if url is not None else None
    if address is None:
        return None
    host, port, base = address
    settings = {item.arg: setting_of(reader, item.arg, item, frame) for item in node.keywords if item.arg in OPENAI_FIELDS}
    open_ended = any(item.arg is None for item in node.keywords)
    for name in extras:
        given = keyword(node, name)
        if given is not None:
            extra = reader.evaluate(given, frame)
            settings.update(extra.keys)
            open_ended = open_ended or extra.value is UNKNOWN
    request = Request("http", frame.module.span(node), settings, open_ended, base.rstrip("/") + route, address_condition(url, frame))
    return Client(host, port, request)


def _name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
