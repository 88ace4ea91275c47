"""What a file says about replay servers and their clients (`served.Served`) as JSON values and
back, for the result cache. A setting keeps its name, value, span, spelling and whether it is
implied; a value is a JSON scalar, or tagged: `{"u": 1}` UNKNOWN, `{"l": [...]}` a list,
`{"d": [[key, value], ...]}` a dict (keys str or int, kept as they are). `decode` checks the type
of every value and raises `Malformed` for anything `encode` would not have made."""

from __future__ import annotations

from typing import Any

from ...model import UNKNOWN, Framework, Launch, LaunchKind, Request, Setting
from ...served import ReplayServer, Served, ServerClient
from .findings import Malformed, _decode_span, _list, _span, _text

_SCALARS = (str, int, float, bool, type(None))


def encode(served: Served) -> dict[str, Any]:
    return {
        "servers": [_server(server) for server in served.servers],
        "clients": [[client.host, client.port, _request(client.request), client.framework] for client in served.clients],
        "reads_masks": served.reads_masks,
        "ports": list(served.ports),
        "clients_unread": served.clients_unread,
    }


def _server(server: ReplayServer) -> dict[str, Any]:
    launch = server.launch
    framework = launch.framework
    return {
        "launch": [
            launch.kind.value,
            _span(launch.span),
            launch.label,
            launch.entrypoint,
            None if framework is None else [framework.name, framework.package, framework.edition],
            [_setting(setting) for setting in launch.settings.values()],
            [_request(request) for request in launch.clients],
        ],
        "port": server.port,
        "hosts": list(server.hosts),
        "releases": list(server.releases),
        "condition": server.condition,
        "local": server.local,
        "local_condition": server.local_condition,
        "replay_condition": server.replay_condition,
    }


def _request(request: Request) -> list:
    settings = [_setting(setting) for setting in request.settings.values()]
    return [request.kind, _span(request.span), settings, request.open_ended, request.endpoint, request.condition]


def _setting(setting: Setting) -> list:
    kept = [setting.name, _value(setting.value), _span(setting.span), setting.spelling, setting.implied, setting.condition]
    return [*kept, [_setting(choice) for choice in setting.choices]] if setting.choices else kept


def _value(value: Any) -> Any:
    """A value as JSON keeps it; anything else (an object of the checked program) as UNKNOWN."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, (list, tuple)):
        return {"l": [_value(item) for item in value]}
    if isinstance(value, dict) and all(type(key) in (str, int) for key in value):
        return {"d": [[key, _value(item)] for key, item in value.items()]}
    return {"u": 1}


def decode(value: object) -> Served:
    if (
        type(value) is not dict
        or value.keys() != {"servers", "clients", "reads_masks", "ports", "clients_unread"}
        or type(value["reads_masks"]) is not bool
        or type(value["clients_unread"]) is not bool
    ):
        raise Malformed("a file's servers and clients")
    return Served(
        tuple(_decode_server(server) for server in _list(value["servers"])),
        tuple(_decode_client(client) for client in _list(value["clients"])),
        value["reads_masks"],
        tuple(_integer(port) for port in _list(value["ports"])),
        value["clients_unread"],
    )


def _decode_server(value: object) -> ReplayServer:
    if (
        type(value) is not dict
        or value.keys() != {"launch", "port", "hosts", "releases", "condition", "local", "local_condition", "replay_condition"}
        or type(value["local"]) is not bool
    ):
        raise Malformed("a server")
    return ReplayServer(
        _decode_launch(value["launch"]),
        _integer(value["port"]),
        tuple(_text(host) for host in _list(value["hosts"])),
        tuple(_text(release) for release in _list(value["releases"])),
        _text(value["condition"]),
        value["local"],
        _text(value["local_condition"]),
        _text(value["replay_condition"]),
    )


def _decode_launch(value: object) -> Launch:
    if type(value) is not list or len(value) != 7:
        raise Malformed("a launch")
    kind, span, label, entrypoint, framework, settings, clients = value
    named = None
    if framework is not None:
        if type(framework) is not list or len(framework) != 3:
            raise Malformed("a framework")
        named = Framework(*(_text(part) for part in framework))
    kept = [_decode_setting(setting) for setting in _list(settings)]
    return Launch(
        LaunchKind(_text(kind)),
        _decode_span(span),
        {setting.name: setting for setting in kept},
        label=_text(label),
        entrypoint=_text(entrypoint),
        framework=named,
        clients=tuple(_decode_request(request) for request in _list(clients)),
    )


def _decode_client(value: object) -> ServerClient:
    if type(value) is not list or len(value) != 4:
        raise Malformed("a client")
    return ServerClient(_text(value[0]), _integer(value[1]), _decode_request(value[2]), _text(value[3]))


def _decode_request(value: object) -> Request:
    if type(value) is not list or len(value) not in (5, 6) or type(value[3]) is not bool:
        raise Malformed("a request")
    kept = [_decode_setting(setting) for setting in _list(value[2])]
    condition = _text(value[5]) if len(value) == 6 else ""  # (a cache written before requests had one)
    return Request(
        _text(value[0]), _decode_span(value[1]), {setting.name: setting for setting in kept}, value[3], _text(value[4]), condition
    )


def _decode_setting(value: object) -> Setting:
    if type(value) is not list or len(value) not in (5, 6, 7) or type(value[4]) is not bool:
        raise Malformed("a setting")
    condition = _text(value[5]) if len(value) >= 6 and value[5] is not None else None  # what its value rests on
    choices = tuple(_decode_setting(choice) for choice in _list(value[6])) if len(value) == 7 else ()
    return Setting(
        _text(value[0]),
        _decode_value(value[1]),
        _decode_span(value[2]),
        _text(value[3]),
        implied=value[4],
        condition=condition,
        choices=choices,
    )


def _decode_value(value: object) -> Any:
    if type(value) in _SCALARS:
        return value
    if type(value) is not dict or len(value) != 1:
        raise Malformed("a value")
    if value == {"u": 1}:
        return UNKNOWN
    if "l" in value:
        return [_decode_value(item) for item in _list(value["l"])]
    if "d" not in value:
        raise Malformed("a value")
    pairs = _list(value["d"])
    if not all(type(pair) is list and len(pair) == 2 and type(pair[0]) in (str, int) for pair in pairs):
        raise Malformed("a dict")
    return {pair[0]: _decode_value(pair[1]) for pair in pairs}


def _integer(value: object) -> int:
    if type(value) is not int:
        raise Malformed("a number")
    return value
