"""Locust's users (`class RolloutWorker(HttpUser)` with `host = "http://localhost:8000"`): in a
method of the class, `self.client` is the session Locust makes for the user, which sends a path
to the class's `host` followed by it (`HttpSession._build_url`: `f"{self.base_url}{path}"`, the
same in `FastHttpUser`'s session). `locust --host URL`, `LOCUST_HOST` or a `locust.conf` replace
the class's `host` at run time, so an address read from it says so."""

from __future__ import annotations

import ast
from typing import Any

from .frames import Evaluates, Frame
from .urls import url_address

_USERS = ("HttpUser", "FastHttpUser")
RUN_HOST = "locust runs without `--host`, `LOCUST_HOST` or a config file's `host`"


def user_address(reader: Evaluates, path: Any, session: ast.expr, frame: Frame) -> tuple[tuple[str, int, str] | None, str]:
    """(host, port, path) of `self.client.post(path)` in a Locust user class whose `host` is
    written once, in the class's body, and what it rests on; None for any other shape."""
    address = _address(reader, path, session, frame)
    return address, RUN_HOST if address is not None else ""


def _address(reader: Evaluates, path: Any, session: ast.expr, frame: Frame) -> tuple[str, int, str] | None:
    cls = frame.cls
    if not isinstance(path, str) or not path.startswith("/") or cls is None or "locust" not in frame.module.source.text:
        return None
    if not (isinstance(session, ast.Attribute) and session.attr == "client" and _is_self(session.value)):
        return None
    if not any((base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")) in _USERS for base in cls.bases):
        return None
    written = [statement.value for statement in cls.body if _sets_host(statement)]
    if len(written) != 1 or written[0] is None or _host_set_elsewhere(cls):
        return None
    host = reader.evaluate(written[0], Frame(frame.module, frame.module.tree)).value
    return url_address(f"{host}{path}") if isinstance(host, str) and host.startswith("http") else None


def _sets_host(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Assign):
        return any(isinstance(target, ast.Name) and target.id == "host" for target in statement.targets)
    return isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.target.id == "host"


def _host_set_elsewhere(cls: ast.ClassDef) -> bool:
    """`self.host = ...` in a method (`on_start`): the session may be made from another host."""
    return any(
        isinstance(node, ast.Attribute) and node.attr in ("host", "client") and _is_self(node.value) and not isinstance(node.ctx, ast.Load)
        for node in ast.walk(cls)
    )


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"
