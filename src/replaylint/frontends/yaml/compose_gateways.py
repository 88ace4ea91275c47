"""nginx gateways of a compose project: a service of the `nginx` image whose configuration is a
file of the tree mounted into `/etc/nginx/` (`./nginx/nginx.conf:/etc/nginx/conf.d/default.conf:ro`),
as vLLM's docs/deployment/nginx.md puts servers behind one address. Each
`location PREFIX { proxy_pass http://HOST:PORT[/URI]; }` of a `server { listen N; }` is a route:
a request to the gateway whose path starts with PREFIX goes to HOST:PORT, with PREFIX replaced
by URI when `proxy_pass` names one, else with its path unchanged (nginx's `proxy_pass`).

The gateway is reached by its service's names on its listen port, and by the host's local names
on the host port `ports:` publishes it on (`"8080:80"`). Not read (no route): a location that is
a regular expression (`~`) or exact (`=`), one that rewrites (`rewrite`) or proxies to a
variable or an `upstream` group, `include`d files, a port from the environment."""

from __future__ import annotations

import os
import re
from typing import Callable
from urllib.parse import urlsplit

from yaml.nodes import MappingNode, Node, ScalarNode

from ...readers.yaml_nodes import ComposeError, compose_all, entries, get, items
from ...records import record
from ...served import LOCAL_HOSTS

_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)?(?:library/|nginxinc/)?nginx(?:-unprivileged)?(?::[\w.-]+)?(?:@\S+)?$")
_TOKENS = re.compile(r"#[^\n]*|\"[^\"]*\"|'[^']*'|[{};]|[^\s{};#]+")
_MAX_CONF = 256_000


@record(unsafe_hash=True)
class Route:
    names: tuple[str, ...]  # the gateway's service names, on `port`
    port: int
    published: int | None  # the host's port `ports:` publishes `port` on
    prefix: str
    host: str
    upstream: int
    uri: str | None  # what replaces the prefix; None: the path goes on as it is

    def sends(self, host: str, port: int, path: str) -> tuple[str, int, str] | None:
        """Where a request to `host:port/path` goes through the gateway, if this route takes it."""
        reached = (host in self.names and port == self.port) or (host in LOCAL_HOSTS and port == self.published)
        if not reached or not path.startswith(self.prefix):
            return None
        rest = path[len(self.prefix) :]
        return self.host, self.upstream, path if self.uri is None else self.uri + rest


def routes(compose_path: str, read_text: Callable[[str], str | None]) -> list[Route]:
    """The routes of the nginx gateways the compose file defines."""
    text = read_text(compose_path)
    try:
        documents = compose_all(text) if text is not None and "nginx" in text else []
    except ComposeError:
        return []
    found: list[Route] = []
    for document in documents:
        for key, service in entries(get(document, "services")):
            image = get(service, "image") if isinstance(service, MappingNode) else None
            if isinstance(image, ScalarNode) and _IMAGE.match(str(image.value)):
                found += _gateway(compose_path, key, service, read_text)  # type: ignore[arg-type]
    return found


def _gateway(compose_path: str, key: Node, service: MappingNode, read_text: Callable[[str], str | None]) -> list[Route]:
    names = (str(key.value), *(n.value for n in (get(service, "hostname"), get(service, "container_name")) if isinstance(n, ScalarNode)))
    published = dict(filter(None, (_published(item) for item in items(get(service, "ports")))))
    found: list[Route] = []
    for item in items(get(service, "volumes")):
        source, _, target = str(item.value).partition(":") if isinstance(item, ScalarNode) else ("", "", "")
        target = target.split(":")[0]
        if not source.startswith(".") or not target.startswith("/etc/nginx/") or not target.endswith(".conf"):
            continue
        conf = read_text(os.path.normpath(os.path.join(os.path.dirname(compose_path), source)))
        if conf is None or len(conf) > _MAX_CONF:
            continue
        for listen, prefix, url in _locations(_block(_TOKENS.findall(conf))):
            upstream = _upstream(url)
            if upstream is not None:
                found.append(Route(names, listen, published.get(listen), prefix, *upstream))
    return found


def _published(item: Node) -> tuple[int, int] | None:
    """(container port, host port) of a `ports:` entry `"HOST:CONTAINER"` (an address before them kept out)."""
    text = str(item.value).split("/")[0] if isinstance(item, ScalarNode) else ""
    parts = text.split(":")
    if len(parts) < 2 or not parts[-1].isdigit() or not parts[-2].isdigit():
        return None
    return int(parts[-1]), int(parts[-2])


Block = list  # of (name, arguments, block or None)


def _block(tokens: list[str], position: list[int] | None = None) -> Block:
    """nginx's configuration as nested directives; comments dropped."""
    position = position if position is not None else [0]
    found: Block = []
    words: list[str] = []
    while position[0] < len(tokens):
        token = tokens[position[0]]
        position[0] += 1
        if token.startswith("#"):
            continue
        if token == ";":
            if words:
                found.append((words[0], words[1:], None))
            words = []
        elif token == "{":
            found.append((words[0] if words else "", words[1:], _block(tokens, position)))
            words = []
        elif token == "}":
            return found
        else:
            words.append(token.strip("\"'"))
    return found


def _locations(block: Block) -> list[tuple[int, str, str]]:
    """(listen port, location prefix, proxy_pass URL) of each plain location of each server."""
    found = []
    for name, arguments, inner in block:
        if inner is None:
            continue
        if name != "server":
            found += _locations(inner)
            continue
        ports = [_port(args[0]) for directive, args, _ in inner if directive == "listen" and args]
        listens = [port for port in ports if port is not None] if ports else [80]
        for directive, args, body in inner:
            if directive != "location" or body is None or len(args) != 1 or not args[0].startswith("/"):
                continue
            passes = [a[0] for d, a, _ in body if d == "proxy_pass" and a]
            if len(passes) == 1 and not any(d in ("rewrite", "include", "return") for d, _, _ in body):
                found += [(port, args[0], passes[0]) for port in listens]
    return found


def _port(listen: str) -> int | None:
    text = listen.rpartition(":")[2] if not listen.startswith("unix:") else ""
    return int(text) if text.isdigit() else None


def _upstream(url: str) -> tuple[str, int, str | None] | None:
    """(host, port, URI or None) of `proxy_pass http://policy:8000/`; None for a variable or a group."""
    if "$" in url or not url.startswith("http://"):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None  # no port: an `upstream` group, or port 80 of a name
    return parts.hostname, port, parts.path or None
