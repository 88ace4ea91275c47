"""What one file says about replay servers and their HTTP clients, so that a client in one file
can be tied to a server another file starts (`cross_file`): the replay servers it starts (their
port, the names that reach them), the clients it holds that no server of its own serves, and
whether it names the masks' route where no client was read. Plain data, kept with the file's
result in the cache (`cache/served_json`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, TypeVar

from .records import record

if TYPE_CHECKING:  # a run that finds nothing imports no model
    from .model import Launch, Request

# The names a client on the same machine (or in the same pod) reaches a server by.
LOCAL_HOSTS = frozenset(("localhost", "127.0.0.1", "0.0.0.0", "::1"))
_T = TypeVar("_T")


def publishes_itself(text: str, port: int) -> bool:
    """Whether a container's published port (`8000:8000`, `127.0.0.1:8000:8000`, `8000-8010:8000-8010/tcp`:
    compose's `ports:`, `docker run -p`) publishes `port` on the same port of the host."""
    host, _, container = text.split("/")[0].rpartition(":")
    host = host.rpartition(":")[2]  # `127.0.0.1:8000:8000`
    return bool(host) and host == container and _holds(container, port)


def _holds(ports: str, port: int) -> bool:
    """Whether `8000` or `8000-8010` holds `port`."""
    low, _, high = ports.partition("-")
    try:
        return int(low) <= port <= int(high or low)
    except ValueError:
        return False


@record(unsafe_hash=True)
class ReplayServer:
    """A server with sampling distribution replay on: `launch` keeps only what the client rules
    read (and the clients its own file ties to it); `hosts`, names besides the local ones that
    reach it (a compose service); `releases`, those its file judged it against; `condition`, what
    its port rests on ("`PORT` is unset"); `local`, whether its local names reach it (`Launch.local`),
    and `local_condition` what that rests on; `replay_condition`, what its mask rests on (a Makefile's
    `REPLAY ?= --return-sampling-mask`)."""

    launch: Launch
    port: int
    hosts: tuple[str, ...] = ()
    releases: tuple[str, ...] = ()
    condition: str = ""

    local: bool = True
    local_condition: str = ""
    replay_condition: str = ""

    def reached_by(self, host: str) -> bool:
        return self.local if host in LOCAL_HOSTS else host in self.hosts


@record(unsafe_hash=True)
class ServerClient:
    """An HTTP client of a server at `host:port`; `framework`: the package whose own server it
    talks to ("trl": a TRL trainer), "" for vLLM's own server."""

    host: str
    port: int
    request: Request
    framework: str = ""


@record(unsafe_hash=True)
class Served:
    servers: tuple[ReplayServer, ...] = ()
    clients: tuple[ServerClient, ...] = ()
    reads_masks: bool = False  # names `/inference/v1/generate` where no client was read: any server's masks may be read
    ports: tuple[int, ...] = ()  # of the servers it starts that are not replay servers with a known port
    clients_unread: bool = False  # it may hold clients, left unread while no server of its own needed them

    def __bool__(self) -> bool:
        return bool(self.servers or self.clients or self.reads_masks or self.ports or self.clients_unread)


def distinct(items: Iterable[_T]) -> tuple[_T, ...]:
    """Each item once, in order (settings hold dicts: no hash to dedupe them by)."""
    kept: list[_T] = []
    for item in items:
        if item not in kept:
            kept.append(item)
    return tuple(kept)


_SCHEME_PORTS = {"http": 80, "https": 443}


def url_address(url: Any) -> tuple[str, int, str] | None:
    """(host, port, path) of a known URL."""
    from urllib.parse import urlsplit  # imported when a client is read

    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url.strip())
        port = parts.port or _SCHEME_PORTS.get(parts.scheme)
    except ValueError:
        return None
    return (parts.hostname, port, parts.path) if port is not None and parts.hostname else None
