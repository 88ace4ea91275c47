"""A session class of the tree that subclasses an HTTP session (`class PolicyClient(httpx.Client)`
whose `__init__` calls `super().__init__(base_url=..., timeout=...)`, or `OpenAI` subclassed the
same way): inside its methods `self` is the session, made by that `super().__init__` call, read
in `__init__` with each construction of the class in the tree, else with `__init__`'s defaults and
an empty `**kwargs` as written (`kwargs.setdefault("base_url", URL)`), resting on the code that
makes the class passing none. Also a session class whose `request` override hands
`super().request` a URL made from the one it is given (requests' docs' prefixing session:
`f"{self.base_url}{url}"`): the URL a `.post(path)` of its object sends to."""

from __future__ import annotations

import ast
import copy
from typing import Any

from .frames import Evaluates, Frame
from .module import FUNCTIONS
from .objects import Instance

_PREFIXED_BASES = ("Session", "Client", "AsyncClient")  # requests', httpx's


def self_made(reader, frame: Frame, classes: tuple[str, ...]) -> list[tuple[ast.Call, Frame]]:
    """The one `super().__init__(...)` call that makes `self` a session (or OpenAI client) of
    `classes`, read with each construction of the class in the tree (else `__init__`'s defaults as
    written: `client_factories.setter_frames`); empty when the class is not such a subclass, has
    no `__init__` of its own, or calls it more than once."""
    from .client_factories import setter_frames

    cls = frame.cls
    if cls is None or not any(_name(base) in classes for base in cls.bases):
        return []
    init = next((s for s in cls.body if isinstance(s, FUNCTIONS) and s.name == "__init__"), None)
    supers = [node for node in ast.walk(init) if _super_init(node)] if init is not None else []
    if len(supers) != 1:
        return []
    placed = next((p for p in frame.module.statements(init) if any(n is supers[0] for n in ast.walk(p.statement))), None)
    return [(supers[0], where) for where in setter_frames(reader, frame, init, placed)] if placed is not None else []  # type: ignore[arg-type]


def _name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _super_init(node: ast.AST) -> bool:
    return _super_call(node, "__init__")


def prefixed_url(reader: Evaluates, path: Any, session: ast.expr, frame: Frame) -> Any:
    """The URL `session.post(path)` sends to, where the session is an object of a class of the tree
    whose `request` override passes `super().request(method, URL, ...)`: URL read with the path
    written in for its parameter and the object for `self` (None when that is not the shape)."""
    made = reader.evaluate(session, frame).ref if isinstance(path, str) else None
    cls = made.cls.node if isinstance(made, Instance) else None
    if cls is None or not any(_name(base) in _PREFIXED_BASES for base in cls.bases):
        return None
    method = next((s for s in cls.body if isinstance(s, FUNCTIONS) and s.name == "request"), None)
    names = [a.arg for a in method.args.args] if method is not None else []
    supers = [node for node in ast.walk(method) if _super_call(node, "request")] if len(names) >= 3 else []
    if len(supers) != 1 or len(supers[0].args) < 2 or _rebinds(method, names[2]):  # type: ignore[arg-type]
        return None
    url = _Given({names[0]: session, names[2]: ast.Constant(path)}).visit(copy.deepcopy(supers[0].args[1]))
    return reader.evaluate(url, frame).value


def _super_call(node: ast.AST, name: str) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    return (
        isinstance(func, ast.Attribute)
        and func.attr == name
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )


def _rebinds(method: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load) for node in ast.walk(method))


class _Given(ast.NodeTransformer):
    """An expression of the method with its parameters replaced by what the call gives them."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.expr:
        given = self.given.get(node.id)
        return ast.copy_location(copy.deepcopy(given), node) if given is not None else node
