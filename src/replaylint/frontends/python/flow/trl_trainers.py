"""TRL trainer configs as clients of a `trl vllm-serve`: a `GRPOConfig`,
`RLOOConfig` or `DistillationConfig` imported from `trl`, with `use_vllm=True,
vllm_mode="server"` and an address that names a port, is the request TRL sends with every
generation (`frameworks.trl`): its `repetition_penalty`, `top_k` and `temperature` as written,
and every key of its `generation_kwargs` (sent after them); its `vllm_mode` is kept as the place
that makes it an HTTP client.
A config changed after it is built (`args.vllm_mode = ...`) or given `**kwargs` is not read.
Tied to the server the same file starts on its port, else left for one another file starts
(`ExtractContext.clients`)."""

from __future__ import annotations

import ast
from typing import Iterator

from ....frameworks.trl import (
    SENT_FIELDS,
    SERVER_HOST,
    SERVER_PORT,
    TRAINER_CONFIGS,
    TRAINER_ROUTE,
    TRAINER_SWITCHES,
    with_trainer_requests,
)
from ....model import UNKNOWN, Launch, Request
from ....served import ServerClient
from ....source import ExtractContext, SourceFile
from ....vllm.unusable_masks import replay_port
from .bodies import text
from .callsites import calls, keyword
from .clients import Client, setting_of
from .frames import Frame
from .module import Module, parse
from .reader import Reader
from .tree import Tree
from .urls import url_address

MODE = "vllm_mode"  # kept with the request: what makes the trainer a client over HTTP (RPL301's place)


def with_trainers(launches: list[Launch], source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The launches, each `trl vllm-serve` among them with what the file's TRL trainers send it;
    the trainers no server of the file serves are left in `context`."""
    ports = {id(launch): port for launch in launches if launch.framework is not None and (port := replay_port(launch)) is not None}
    module = parse(source)
    if module is None:
        return launches
    found = list(trainers(Reader(Tree(module, context)), module))
    served = set(ports.values())
    context.clients.extend(ServerClient(c.host, c.port, c.request, "trl") for c in found if c.port not in served)
    return [
        with_trainer_requests(launch, tuple(c.request for c in found if c.port == ports[id(launch)])) if id(launch) in ports else launch
        for launch in launches
    ]


def trainers(reader: Reader, module: Module) -> Iterator[Client]:
    """TRL trainer configs (`GRPOConfig(...)`) in server mode, each as the request it sends."""
    if _assigns_attributes(module, (*SENT_FIELDS, *TRAINER_SWITCHES)):
        return  # `args.vllm_mode = ...`: the config is changed after it is built
    names, packages = _from_trl(module)
    for call in calls(module, tuple(f"{name}(" for name in (*names, *TRAINER_CONFIGS))):
        func = call.node.func
        ours = (isinstance(func, ast.Name) and func.id in names) or (
            isinstance(func, ast.Attribute)
            and func.attr in TRAINER_CONFIGS
            and isinstance(func.value, ast.Name)
            and func.value.id in packages
        )
        if ours and all(item.arg is not None for item in call.node.keywords):
            frame = Frame(module, call.scope, call.cls, None, call.placed)
            found = _trainer(reader, call.node, frame)
            if found is not None:
                yield found


def _from_trl(module: Module) -> tuple[set[str], set[str]]:
    """The names the module binds to TRL's trainer configs (`from trl import GRPOConfig as C`),
    and to the `trl` package itself (`import trl`): another project's `GRPOConfig` is not TRL's."""
    names, packages = set(), set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None and node.module.split(".")[0] == "trl":
            names.update(alias.asname or alias.name for alias in node.names if alias.name in TRAINER_CONFIGS)
        elif isinstance(node, ast.Import):
            packages.update(alias.asname or alias.name for alias in node.names if alias.name == "trl")
    return names, packages


def _trainer(reader: Reader, node: ast.Call, frame: Frame) -> Client | None:
    """The request of one trainer config: None unless it says the server mode and the port."""
    written = {item.arg: item for item in node.keywords}
    values = {name: reader.evaluate(written[name].value, frame).value for name in ("use_vllm", "vllm_mode") if name in written}
    if values.get("use_vllm") is not True or values.get("vllm_mode") != "server":
        return None
    url = keyword(node, "vllm_server_base_url")
    if url is not None:
        address = url_address(text(reader, url, frame))
        host, port = address[:2] if address is not None else ("", None)
    else:
        given = reader.evaluate(keyword(node, "vllm_server_port"), frame).value if "vllm_server_port" in written else SERVER_PORT
        port = given if isinstance(given, int) and not isinstance(given, bool) else None
        host = text(reader, keyword(node, "vllm_server_host"), frame) if "vllm_server_host" in written else SERVER_HOST
    if port is None or not isinstance(host, str):
        return None
    settings = {name: setting_of(reader, name, written[name], frame) for name in (*SENT_FIELDS, MODE) if name in written}
    if "generation_kwargs" in written:  # sent after the fields, so its keys replace them
        extra = reader.evaluate(written["generation_kwargs"].value, frame)
        if extra.value is UNKNOWN:
            return None
        settings.update(extra.keys)  # every key reaches the request (`vllm_client.py:443, 448-454`)
    return Client(host, port, Request("http", frame.module.span(node), settings, False, TRAINER_ROUTE))


def _assigns_attributes(module: Module, names: tuple[str, ...]) -> bool:
    return any(isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in names for node in ast.walk(module.tree))
