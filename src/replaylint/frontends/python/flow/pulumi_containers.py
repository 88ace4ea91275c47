"""A Docker container a Pulumi program runs (pulumi_docker's `docker.Container(name, image=...,
entrypoints=[...], command=[...], envs=["K=V"], ports=[docker.ContainerPortArgs(internal=8000,
external=8000)])`), read as Docker runs it with the container readers of `vertex_models`:
`entrypoints` replaces the image's entrypoint, `command` its arguments, `envs` the variables.

The image is a name, or the `image_id`/`repo_digest`/`name` of a `docker.RemoteImage(..., name=...)`
bound once in the module (a `docker.Image` built from the tree has an entrypoint not known here).
A client on the host reaches the server only where the container publishes the server's port on
the same port of the host (or runs with `network_mode="host"`), as for a compose service."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterator

from ....model import Launch, Setting
from ....vllm.unusable_masks import server_port
from .callsites import calls, keyword
from .frames import Frame
from .module import Module
from .reader import Qualified, Reader
from .vertex_models import ContainerKeywords, image_of, launch_of

_CONTAINER = "pulumi_docker.Container"
_REMOTE_IMAGE = "pulumi_docker.RemoteImage"
_IMAGE_OUTPUTS = ("image_id", "repo_digest", "name")
_PULUMI = ContainerKeywords("image", "entrypoints", "command", "envs")
WORDS = "pulumi_docker"


def pulumi_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    for call in calls(module, ("Container(",)):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        made = reader.evaluate(call.node.func, frame).ref
        if not isinstance(made, Qualified) or made.name != _CONTAINER:
            continue
        env = _envs(reader, module, keyword(call.node, _PULUMI.env), frame)
        if env is None:
            continue
        launch = launch_of(reader, module, call.node, frame, _PULUMI, _image(reader, module, keyword(call.node, "image"), frame), env)
        if launch is not None:
            port = server_port(launch)
            yield replace(launch, local=port is not None and _published(reader, call.node, frame, port))


def _image(reader: Reader, module: Module, node: ast.expr | None, frame: Frame) -> tuple[str | None, ast.expr | None]:
    if isinstance(node, ast.Attribute) and node.attr in _IMAGE_OUTPUTS and isinstance(node.value, ast.Name):
        bound = [p.statement for p in module.binders(module.tree, node.value.id)]
        value = bound[0].value if len(bound) == 1 and isinstance(bound[0], ast.Assign) else None
        made = reader.evaluate(value.func, frame).ref if isinstance(value, ast.Call) else None
        if isinstance(made, Qualified) and made.name == _REMOTE_IMAGE:
            return image_of(reader, keyword(value, "name"), frame)  # type: ignore[arg-type]
        return None, None
    return image_of(reader, node, frame)


def _envs(reader: Reader, module: Module, node: ast.expr | None, frame: Frame) -> tuple[dict[str, Setting], bool] | None:
    """`envs=["K=V", ...]`: the variables, and whether others may be set (a word not known)."""
    if node is None:
        return {}, False
    if not isinstance(node, ast.List):
        return {}, True
    env, opened = {}, False
    for item in node.elts:
        text = reader.evaluate(item, frame).value
        if not isinstance(text, str) or "=" not in text:
            opened = True
            continue
        name, value = text.split("=", 1)
        env[name] = Setting(name, value, module.span(item), text, module.span(item))
    return env, opened


def _published(reader: Reader, node: ast.Call, frame: Frame, port: int) -> bool:
    """Whether the container publishes `port` on the same port of the host."""
    mode = keyword(node, "network_mode")
    if mode is not None and reader.evaluate(mode, frame).value == "host":
        return True
    ports = keyword(node, "ports")
    for item in ports.elts if isinstance(ports, ast.List) else ():
        if isinstance(item, ast.Call):
            internal, external = keyword(item, "internal"), keyword(item, "external")
        elif isinstance(item, ast.Dict):
            pairs = {k.value: v for k, v in zip(item.keys, item.values) if isinstance(k, ast.Constant)}
            internal, external = pairs.get("internal"), pairs.get("external")
        else:
            continue
        numbers = [reader.evaluate(n, frame).value if n is not None else None for n in (internal, external)]
        if numbers == [port, port]:
            return True
    return False
