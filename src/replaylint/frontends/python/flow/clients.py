"""HTTP clients of a vLLM server: `OpenAI(base_url=...)` (or the `openai` module given
`openai.base_url = ...`) with `.completions.create`, `.chat.completions.create` and
`.responses.create` (also `.parse`, `.stream`, through `with_raw_response` or `beta`; and the
libraries that wrap it, below), and `.post` of `requests`, `httpx` or a session (or its
`.request("POST", url)`, `.stream("POST", url)`) given a whole URL, or a path under the
`base_url` its session was made with
(`httpx.Client`, `httpx.AsyncClient`, `aiohttp.ClientSession`, also in a `with`), its body
given as `json=` or `data=json.dumps(...)`, each read as a request (`Request.endpoint`, the body's sampling
fields) and tied to the server launch of the same file whose port its address names (`--port`,
vLLM's default 8000). A client whose address is not known here is tied to nothing; one whose
port no server of the file listens on is left for a server another file starts
(`ExtractContext.clients`, tied by `cross_file` after the run).

A TRL trainer config built in a file that also starts `trl vllm-serve` is a client of that
server too: the fields TRL sends with every request (`frameworks.trl`), when the config says
`use_vllm=True, vllm_mode="server"` and an address that names the server's port."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any, Iterator

from ....model import UNKNOWN, Launch, Request, Setting
from ....records import record
from ....served import ServerClient
from ....source import ExtractContext, SourceFile
from ....vllm.unusable_masks import MASK_ENDPOINT, server_port
from .bodies import address_condition, bound_once, resting_keys, sent_fields, spread_fields, text
from .callsites import calls, keyword
from .client_constructions import constructions, is_class
from .client_env import address_conditions, base_url
from .client_factories import (
    as_written,
    module_client,
    spread_keyword,
)
from .client_partials import partial_sends, with_call_keywords
from .client_picks import every_item, picked_addresses
from .dspy_lms import dspy_target
from .frames import Frame
from .litellm_routers import PROVIDERS, ROUTES, deployed_base
from .locust_users import user_address
from .module import Module, parse
from .reader import Reader
from .requests import request_frames
from .session_subclasses import prefixed_url
from .tree import Tree
from .urls import joined_address, url_address

# A client's own words: the OpenAI client made (`OpenAI(`, `AsyncOpenAI(`, or its module imported to
# make one) or used (a factory of another module made it), a `.post(` (or `.request("POST", ...)`);
# "openai" alone is in every vLLM module of `vllm.entrypoints.openai`.
CLIENT_WORDS = (
    "OpenAI(",
    ".post(",
    "import openai",
    "from openai",
    "litellm",
    "dspy",
    "crewai",
    "urllib.request",
    "completions.create(",
    "responses.create(",
    "_response.create(",  # `chat.completions.with_raw_response.create(`
    ".request(",
    ".stream(",
)
# The longest first: `.chat.completions.create` also ends with `.completions.create`.
_OPENAI_ROUTES = {"chat.completions.create": "/chat/completions", "completions.create": "/completions", "responses.create": "/responses"}
_OPENAI_CLASSES = ("OpenAI", "AsyncOpenAI", "Client", "AsyncClient")  # `openai.Client` is `OpenAI`
# The OpenAI client's calls that send a request (`.parse` and `.stream` wrap `.create`), and the
# links of a chain that change how the answer is given, not the route (`with_raw_response`).
_OPENAI_VERBS = ("create", "parse", "stream")
_OPENAI_WRAPPERS = ("with_raw_response", "with_streaming_response", "beta")
# A session's calls that name the method first: `session.request("POST", url)`, `client.stream("POST", url)`.
_METHOD_FIRST = ("request", "stream")
# Sessions made with a `base_url` that a relative `.post` path is joined to.
_SESSION_CLASSES = ("Client", "AsyncClient", "ClientSession")
# requests-toolbelt's session, which joins every path to its `base_url` with `urljoin`.
_URLJOIN_SESSIONS = ("BaseUrlSession",)
# The OpenAI client's own sampling arguments that vLLM reads; the rest goes through `extra_body`.
OPENAI_FIELDS = ("temperature", "presence_penalty", "frequency_penalty", "logit_bias")


@record(unsafe_hash=True)
class Client:
    host: str
    port: int
    request: Request


def with_clients(launches: list[Launch], source: SourceFile, context: ExtractContext, deferred: bool = False) -> list[Launch]:
    """The launches, each server among them with the requests this file sends to its port; the
    file's other clients are left in `context` for servers other files start. `deferred`: a file
    that starts no server leaves them unread, for `cross_file` to read if the tree starts a replay
    server (most start none; vLLM's test_serving_tokens.py's clients cost a cold scan 60 ms)."""
    if not any(word in source.text for word in CLIENT_WORDS):
        context.reads_masks = MASK_ENDPOINT in source.text  # through a client not read here (`session.send(prepared)`)
        return launches
    ports = {id(launch): port for launch in launches if (port := server_port(launch)) is not None}
    if deferred and not ports:
        context.clients_unread = True
        return launches
    module = parse(source)
    if module is None:
        return launches
    found = list(clients(Reader(Tree(module, context)), module))
    if MASK_ENDPOINT in source.text and not any(c.request.endpoint == MASK_ENDPOINT for c in found):
        # The file names the route with the masks where no client here was read: some request
        # to it may reach any of the servers (a request to an unknown route judges nothing).
        context.reads_masks = True
        unread = Request("http", launches[0].span, {}, open_ended=True) if launches else None
        found += [Client("", port, unread) for port in set(ports.values()) if unread is not None]
    served = set(ports.values())
    context.clients.extend(ServerClient(c.host, c.port, c.request) for c in found if c.port not in served)
    return [
        replace(launch, clients=tuple(c.request for c in found if c.port == ports[id(launch)])) if id(launch) in ports else launch
        for launch in launches
    ]


def clients(reader: Reader, module: Module) -> Iterator[Client]:
    yield from _sdk_clients(reader, module)
    for call in calls(module, (".create(", ".post(", ".parse(", ".stream(", ".request(")):
        func = call.node.func
        route = _openai_route(func) if isinstance(func, ast.Attribute) else None
        if not isinstance(func, ast.Attribute) or not (route or _may_post(call.node, func)):
            continue
        for frame in request_frames(reader, module, call):  # a function's parameters, as each call of it passes them
            if route:
                yield from _openai(reader, call.node, func, frame, route)
            else:
                yield from _post(reader, call.node, func, frame)
    for sent, method, frame, site, site_frame in partial_sends(reader, module, lambda func: _openai_route(func) is not None):
        for found in _openai(reader, sent, method, frame, _openai_route(method) or ""):
            yield replace(found, request=with_call_keywords(reader, found.request, site, site_frame, OPENAI_FIELDS, setting_of))


def _may_post(node: ast.Call, func: ast.Attribute) -> bool:
    """`.post(...)`, or `.request`/`.stream` whose method is written as a name or a string (not
    `ast.parse(...)`, `parser.parse(...)`): read further only then."""
    if func.attr == "post":
        return True
    method = keyword(node, "method") or (node.args[0] if node.args else None)
    return (
        func.attr in _METHOD_FIRST
        and isinstance(method, (ast.Name, ast.Attribute, ast.Constant))
        and len(node.args) + len(node.keywords) > 1
    )


def _openai_route(func: ast.Attribute) -> str | None:
    """The route an OpenAI client's call chain posts to (`/chat/completions`), else None."""
    if func.attr not in _OPENAI_VERBS:
        return None
    links = [link for link in _chain(func).split(".")[1:-1] if link not in _OPENAI_WRAPPERS]
    chain = ".".join(["", *links, "create"])
    return next((r for suffix, r in _OPENAI_ROUTES.items() if chain.endswith("." + suffix)), None)


def _openai(reader: Reader, node: ast.Call, func: ast.Attribute, frame: Frame, route: str) -> list[Client]:
    """The request of an OpenAI client's call, to the address its client was made with; to each
    address when the client takes turns over a list of clients or addresses (`client_picks`)."""
    receiver = _receiver(func)
    written = as_written(reader, frame)
    made = constructions(reader, receiver, written, _OPENAI_CLASSES) or module_client(receiver, frame)
    given = [base_url(reader, call, where) for call, where in made]
    addresses = [url_address(url) for url, _ in given]
    turns = len(set(addresses)) > 1 and every_item(reader, receiver, written)
    if len(made) == 1 and addresses == [None] and spread_keyword(reader, *made[0], "base_url") is None:  # `OpenAI(base_url=next(_urls))`
        addresses = picked_addresses(reader, UNKNOWN, keyword(made[0][0], "base_url"), made[0][1])
        turns, given = True, given * len(addresses)
    if not addresses or None in addresses or (len(set(addresses)) != 1 and not turns):
        return []
    settings, open_ended = _fields(reader, node, frame, ("extra_body",))
    found = []
    for at, (host, port, base) in ((addresses.index(a), a) for a in dict.fromkeys(addresses)):  # type: ignore[misc]
        condition = given[at][1]
        found.append(
            Client(host, port, Request("http", frame.module.span(node), settings, open_ended, base.rstrip("/") + route, condition))
        )
    return found


def _post(reader: Reader, node: ast.Call, func: ast.Attribute, frame: Frame) -> list[Client]:
    """`requests.post(url, json=body)`, and `.post` of any session (`httpx.Client`, `aiohttp`)
    given a whole URL, or a path under the `base_url` the session was made with."""
    if func.attr in _METHOD_FIRST:
        method = keyword(node, "method") or (node.args[0] if node.args else None)
        said = text(reader, method, frame)
        if not isinstance(said, str) or said.upper() != "POST":
            return []
        given = keyword(node, "url") or (node.args[1] if len(node.args) > 1 and keyword(node, "method") is None else None)
    elif func.attr == "post":
        given = keyword(node, "url") or (node.args[0] if node.args else None)
    else:
        return []
    written = as_written(reader, frame)
    url = text(reader, given, written)
    address = url_address(url) or _under_base(reader, url, func.value, frame) or url_address(prefixed_url(reader, url, func.value, frame))
    address, at_run = (address, "") if address is not None else user_address(reader, url, func.value, frame)
    addresses = [address] if address is not None else picked_addresses(reader, url, given, written)
    condition = " and ".join(filter(None, (address_conditions(given, written), at_run)))
    return [posted(reader, node, _body(node), frame, each, condition, written) for each in addresses]


def posted(
    reader: Reader,
    node: ast.Call,
    given: ast.expr | None,
    frame: Frame,
    address: tuple[str, int, str],
    condition: str = "",
    written: Frame | None = None,
) -> Client:
    """The request a call posts to `address` (`condition`: what the address rests on): the
    sampling fields of its JSON body `given` (`written`: `bodies.sent_fields`)."""
    host, port, path = address
    settings, open_ended = sent_fields(reader, given, frame, written)
    return Client(host, port, Request("http", frame.module.span(node), settings, open_ended, path.rstrip("/"), condition))


def _body(node: ast.Call) -> ast.expr | None:
    """The body a post sends: `json=body`, or `data=json.dumps(body)` (`content=` in httpx)."""
    given = keyword(node, "json")
    if given is not None:
        return given
    data = keyword(node, "data") or keyword(node, "content")
    dumped = isinstance(data, ast.Call) and len(data.args) == 1 and not isinstance(data.args[0], ast.Starred)
    name = data.func.attr if isinstance(data, ast.Call) and isinstance(data.func, ast.Attribute) else ""
    return data.args[0] if dumped and name == "dumps" else None  # type: ignore[union-attr]


def _under_base(reader: Reader, path: Any, session: ast.expr, frame: Frame) -> tuple[str, int, str] | None:
    """(host, port, path) of a path posted through a session made with a known `base_url`."""
    if not isinstance(path, str):
        return None
    made = constructions(reader, session, frame, _SESSION_CLASSES + _URLJOIN_SESSIONS)
    if made and all(is_class(call, _URLJOIN_SESSIONS) for call, _ in made):
        bases = {text(reader, keyword(call, "base_url") or next(iter(call.args), None), where) for call, where in made}
        base = bases.pop() if len(bases) == 1 else None
        return joined_address(base, path)
    if not path.startswith("/") or any(is_class(call, _URLJOIN_SESSIONS) for call, _ in made):
        return None
    addresses = {url_address(text(reader, keyword(call, "base_url"), where)) for call, where in made}
    if len(addresses) != 1 or None in addresses:
        return None
    host, port, base = addresses.pop()  # type: ignore[misc]
    if base.strip("/") and any(is_class(call, ("ClientSession",)) for call, _ in made):
        return None  # aiohttp joins an absolute path to the origin (`URL.join`), httpx to the base's path
    return host, port, base.rstrip("/") + path


def setting_of(reader: Reader, name: str, item: ast.keyword, frame: Frame) -> Setting:
    read = reader.evaluate(item.value, frame)
    module = frame.module
    return Setting(name, read.value, module.span(item), module.text(item), module.span(item.value), read.keys)


def _chain(node: ast.expr) -> str:
    """`client.chat.completions.create` as text, from the first attribute on."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    return "." + ".".join(reversed(names))


def _receiver(func: ast.Attribute) -> ast.expr | None:
    """The client a `.chat.completions.create` chain starts from."""
    node: ast.expr = func
    while isinstance(node, ast.Attribute) and node.attr in ("completions", "chat", "responses", *_OPENAI_VERBS, *_OPENAI_WRAPPERS):
        node = node.value
    return node


# -- clients that a library wraps ------------------------------------------------------------------
# HTTP clients of a vLLM server that a library wraps: LangChain's `VLLMOpenAI` (completions) and
# `ChatOpenAI` (chat) made with the server's address (`openai_api_base=`, `base_url=`), and
# LiteLLM's `completion`/`acompletion` (chat) and `text_completion`/`atext_completion`
# (completions) of a `hosted_vllm/` or `openai/` model given `api_base=` (or `base_url=`; or a
# `Router`'s group of such deployments, `litellm_routers`), and the standard library's
# `urllib.request.Request(url, data=json.dumps(body).encode())` (a POST when it has data, `urlopen`
# sends it). Each is read as the request it sends (`clients.Client`): the route, and the sampling
# fields written in the call (the OpenAI ones, and the keys of `model_kwargs` and `extra_body`,
# which the libraries put in the body).

_SDK_WORDS = ("VLLMOpenAI(", "ChatOpenAI(", "completion(", "Request(", "LM(")
# LangChain's classes: the route each posts to under its base URL, and the keywords naming it.
_LANGCHAIN = {"VLLMOpenAI": "/completions", "ChatOpenAI": "/chat/completions"}
_LANGCHAIN_URLS = ("openai_api_base", "base_url")


def _sdk_clients(reader: Reader, module: Module) -> Iterator[Client]:
    for call in calls(module, _SDK_WORDS):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        found = _langchain(reader, call.node, frame) or _litellm(reader, call.node, frame, module)
        found = found or _urllib(reader, call.node, frame, module) or _dspy(reader, call.node, frame)
        if found is not None:
            yield found


def _langchain(reader: Reader, node: ast.Call, frame: Frame) -> Client | None:
    route = _LANGCHAIN.get(_name(node))
    url = next((keyword(node, name) for name in _LANGCHAIN_URLS if keyword(node, name) is not None), None)
    return _client(reader, node, frame, url, route, ("model_kwargs", "extra_body")) if route is not None else None


def _litellm(reader: Reader, node: ast.Call, frame: Frame, module: Module) -> Client | None:
    route = ROUTES.get(_name(node))
    func = node.func
    ours = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "litellm"
    ours = ours or (isinstance(func, ast.Name) and "from litellm import" in module.source.text)
    model = text(reader, keyword(node, "model"), frame)
    routers = constructions(reader, func.value, frame, ("Router",)) if route and isinstance(func, ast.Attribute) else []
    if len(routers) == 1 and "litellm" in module.source.text:  # `router.acompletion(model="policy")`: the group's deployments
        return _client(reader, node, frame, deployed_base(reader, *routers[0], model), route, ("extra_body",))
    if route is None or not ours or not (isinstance(model, str) and model.startswith(PROVIDERS)):
        return None
    return _client(reader, node, frame, keyword(node, "api_base") or keyword(node, "base_url"), route, ("extra_body",))


def _dspy(reader: Reader, node: ast.Call, frame: Frame) -> Client | None:
    target = dspy_target(reader, node, frame)  # `dspy.LM("hosted_vllm/...", api_base=...)`, through LiteLLM
    return _client(reader, node, frame, target.url, target.route, (), more=target.more) if target is not None else None


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


def _client(
    reader: Reader, node: ast.Call, frame: Frame, url: ast.expr | str | None, route: str, extras: tuple[str, ...], more: bool = False
) -> Client | None:
    address = url_address(url if isinstance(url, str) else text(reader, url, frame) if url is not None else None)
    if address is None:
        return None
    host, port, base = address
    settings, open_ended = _fields(reader, node, frame, extras)
    condition = address_condition(url, frame) if isinstance(url, ast.expr) else ""
    request = Request("http", frame.module.span(node), settings, open_ended or more, base.rstrip("/") + route, condition)
    return Client(host, port, request)


def _fields(reader: Reader, node: ast.Call, frame: Frame, extras: tuple[str, ...]) -> tuple[dict[str, Setting], bool]:
    """The sampling fields an OpenAI client's call sends (its `OPENAI_FIELDS`, the keys of the
    dicts it puts in the body: `extras`), written or spread (`**sampling_args`), and whether it
    may send more (a spread or a dict not known)."""
    settings, open_ended = spread_fields(reader, node, frame, OPENAI_FIELDS, extras)  # `**sampling_args`
    settings.update({item.arg: setting_of(reader, item.arg, item, frame) for item in node.keywords if item.arg in OPENAI_FIELDS})
    for name in extras:
        given = keyword(node, name)
        if given is not None:
            extra = reader.evaluate(given, frame)
            settings.update(resting_keys(extra))
            open_ended = open_ended or extra.value is UNKNOWN
    return settings, open_ended


def _name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
