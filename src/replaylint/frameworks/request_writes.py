"""What a fork's own code does to a request on its way to `SamplingParams(**NAME)`: verl's server
`generate(self, prompt_ids, sampling_params, ...)` gets the agent loop's dict and may change it
before `SamplingParams(max_tokens=max_tokens, **sampling_params)`. Read (CPython's parser; nothing
of the tree runs), in order, up to that call: `NAME["k"] = v`, `NAME.setdefault("k", v)`,
`NAME.pop("k")`, `del NAME["k"]`, `NAME.update(k=v)`, each with the `if` it sits under
(`built_dicts.guarded`). Applied to a request's settings: a write whose test the request's own
values decide (`if NAME.get("top_k", -1) <= 0: NAME["top_k"] = 20`) stands or not; one whose test
is not decided here, or whose value is no literal, leaves the key unknown; a `setdefault` of a key
the request carries changes nothing, a `set` or `setdefault` of a key it does not carry adds it;
a `del` or `pop` of a key that is no literal, and anything else done to the dict (bound anew, `update(x)`)
leaves every key unknown."""

from __future__ import annotations

import ast
from dataclasses import field
from functools import lru_cache
from typing import Any, Mapping

from ..model import UNKNOWN, Setting, Span
from ..records import record
from .built_dicts import MAX_CHARS
from .fork_conditions import bound_once, decided, evaluated, guarded
from .fork_source import callee_name, literal, parse, placed, snippet


@record(unsafe_hash=True)
class RequestWrite:
    kind: str  # "set", "setdefault", "pop", or "unread" (every key unknown)
    key: str
    value: Any
    line: int
    text: str
    condition: str = ""


@record(unsafe_hash=True)
class RequestPath:
    """The writes a function makes to the request dict it hands to `SamplingParams(**NAME)`."""

    path: str
    function: str
    name: str
    writes: tuple[RequestWrite, ...]
    names: Mapping[str, ast.expr] = field(default_factory=dict, repr=False, compare=False)
    text: str = field(default="", repr=False, compare=False)

    def applied(self, settings: Mapping[str, Setting], anchor: Span, owner: str) -> dict[str, Setting]:
        """The request's settings (the keys it carries) as `SamplingParams` gets them."""
        found = dict(settings)
        for write in self.writes:
            holds = decided(write.condition, lambda test: evaluated(test, self._read(found), self.names))
            if holds is False:
                continue
            for key in _written_keys(write, found):
                value = write.value if holds is True and write.kind in ("set", "setdefault") else UNKNOWN
                where = f"{owner}'s {self.path.rsplit('/', 1)[-1]}:{write.line}, in {self.function}"
                said = f"{write.text} ({where})"
                via = found[key].span if key in found else anchor
                found[key] = Setting(key, value, placed(self.path, self.text, write.line, anchor), said, implied=True, via=(via,))
        return found

    def _read(self, settings: Mapping[str, Setting]) -> Any:
        def read(node: ast.expr) -> Any:
            """`NAME.get("k", d)` and `NAME["k"]` of a key the request carries: its value."""
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
                owner, key = node.func.value, literal(node.args[0])
            elif isinstance(node, ast.Subscript):
                owner, key = node.value, literal(node.slice)
            else:
                return UNKNOWN
            carried = settings.get(key) if isinstance(owner, ast.Name) and owner.id == self.name and isinstance(key, str) else None
            return carried.value if carried is not None else UNKNOWN

        return read


def _written_keys(write: RequestWrite, carried: Mapping[str, Setting]) -> list[str]:
    """The keys a write changes: every key (unread), its key (set: carried or added; setdefault:
    only when not carried; pop: only when carried)."""
    if write.kind == "unread":
        return list(carried)
    if write.kind == "set" or (write.kind == "setdefault") != (write.key in carried):
        return [write.key]
    return []


def read(text: str, path: str, function: str) -> RequestPath | None:
    """The writes of the function `function` of `text` (one such function with one
    `SamplingParams(**NAME)` call; None otherwise)."""
    found = _read(text, function) if len(text) <= MAX_CHARS else None
    return RequestPath(path, function, found[0], found[1], found[2], text) if found is not None else None


@lru_cache(maxsize=8)
def _read(text: str, function: str) -> tuple[str, tuple[RequestWrite, ...], dict[str, ast.expr]] | None:
    module = parse(text)
    functions = (
        [n for n in ast.walk(module) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == function] if module else []
    )
    if len(functions) != 1:
        return None
    calls = [node for node in ast.walk(functions[0]) if isinstance(node, ast.Call) and _spread(node)]
    if len(calls) != 1:
        return None
    name, writes = _spread(calls[0]), []
    for statement, condition in guarded(functions[0].body):
        if calls[0] in set(ast.walk(statement)):
            break
        writes += _writes(statement, name, snippet(text, statement), condition)  # type: ignore[arg-type]
    return name, tuple(writes), bound_once(functions[0])  # type: ignore[return-value]


def _spread(call: ast.Call) -> str | None:
    """NAME of `SamplingParams(..., **NAME)`."""
    called = callee_name(call)
    spread = [k.value for k in call.keywords if k.arg is None]
    return spread[0].id if called == "SamplingParams" and len(spread) == 1 and isinstance(spread[0], ast.Name) else None


def _writes(statement: ast.stmt, name: str, text: str, condition: str) -> list[RequestWrite]:
    """The writes one statement makes to the dict (not those of the statements it holds)."""
    if isinstance(statement, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)):
        return []  # their tests and headers only read it; their bodies come on their own
    found = []
    if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and getattr(target.value, "id", "") == name:
                key = literal(target.slice)
                value = literal(statement.value) if isinstance(statement, ast.Assign) else UNKNOWN
                found.append(
                    RequestWrite("set", key, value, statement.lineno, text, condition)
                    if isinstance(key, str)
                    else _unread(statement, text, condition)
                )
            elif isinstance(target, ast.Name) and target.id == name:
                found.append(_unread(statement, text, condition))
    if isinstance(statement, ast.Delete):
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and getattr(target.value, "id", "") == name:
                key = literal(target.slice)
                found.append(
                    RequestWrite("pop", key, UNKNOWN, statement.lineno, text, condition)
                    if isinstance(key, str)
                    else _unread(statement, text, condition)
                )
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == name:
            found += _method(node, text, condition)
    return found


def _method(call: ast.Call, text: str, condition: str) -> list[RequestWrite]:
    method, key = call.func.attr, literal(call.args[0]) if call.args else None  # type: ignore[attr-defined]
    if method in ("get", "keys", "items", "values", "copy"):
        return []
    if method in ("setdefault", "pop") and isinstance(key, str):
        return [RequestWrite(method, key, literal(call.args[1]) if len(call.args) > 1 else None, call.lineno, text, condition)]
    if method == "update" and not call.args and all(k.arg for k in call.keywords):
        return [RequestWrite("set", k.arg, literal(k.value), call.lineno, text, condition) for k in call.keywords]  # type: ignore[misc]
    return [_unread(call, text, condition)]


def _unread(node: ast.AST, text: str, condition: str = "") -> RequestWrite:
    return RequestWrite("unread", "", UNKNOWN, getattr(node, "lineno", 0), text, condition)
