"""Values a fork's module declares rather than builds, read with CPython's parser (never
imported): a class's literal field defaults (`class_defaults`: SkyRL's `SamplingParams`, a
dataclass's `top_k: int = -1`) and the literal keywords of the one call that passes a `**` spread
on (`call_keywords`: OpenRLHF's actor's `vllm.AsyncEngineArgs(*args, **self.kwargs)`), each as a
`built_dicts.BuiltDict`."""

from __future__ import annotations

import ast
from dataclasses import replace
from functools import lru_cache

from ..model import UNKNOWN
from .built_dicts import MAX_CHARS, BuiltDict, Written, written
from .fork_source import callee_name


def class_defaults(text: str, path: str, name: str) -> BuiltDict | None:
    """The field defaults a class of `text` writes as literals (`top_k: int = -1` in a dataclass),
    as a dict; None: no such class (or more than one), or the file does not parse."""
    found = _class_defaults(text, name)
    return None if found is None else BuiltDict(path, found, text=text)


@lru_cache(maxsize=8)
def _class_defaults(text: str, name: str) -> dict[str, Written] | None:
    if len(text) > MAX_CHARS:
        return None
    try:
        classes = [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.ClassDef) and node.name == name]
        if len(classes) != 1:
            return None
        fields = [s for s in classes[0].body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is not None]
        return {f.target.id: _field(f.target.id, f.value, f.lineno) for f in fields}  # type: ignore[union-attr, arg-type]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _field(name: str, node: ast.expr, line: int) -> Written:
    """A dataclass field's default: the value written, or the one `field(default=...)` or
    `field(default_factory=lambda: ...)` gives (`dict`, `list`: empty); at the field's line."""
    made = node
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "field" and not node.args:
        given = {keyword.arg: keyword.value for keyword in node.keywords}
        factory = given.get("default_factory")
        made = given.get("default", factory.body if isinstance(factory, ast.Lambda) else factory)  # type: ignore[arg-type]
        if isinstance(made, ast.Name) and made.id in ("dict", "list"):
            made = ast.Dict([], [], lineno=made.lineno) if made.id == "dict" else ast.List([], ast.Load(), lineno=made.lineno)
    if made is None:
        return Written(name, UNKNOWN, ast.unparse(node), line, True)
    return replace(written(name, made, True), text=ast.unparse(node), line=line)


def call_keywords(text: str, path: str, callees: tuple[str, ...]) -> BuiltDict | None:
    """The keywords of the one call in `text` whose function's name is among `callees` and that
    passes a `**` spread on (`vllm.AsyncEngineArgs(*args, **self.kwargs)` in a Ray actor); None:
    no such call, more than one, or the file does not parse."""
    found = _call_keywords(text, callees)
    return None if found is None else BuiltDict(path, found, text=text)


@lru_cache(maxsize=8)
def _call_keywords(text: str, callees: tuple[str, ...]) -> dict[str, Written] | None:
    if len(text) > MAX_CHARS:
        return None
    try:
        calls = [
            node
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Call) and callee_name(node) in callees and any(keyword.arg is None for keyword in node.keywords)
        ]
        if len(calls) != 1:
            return None
        return {k.arg: written(k.arg, k.value, True) for k in calls[0].keywords if k.arg}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
