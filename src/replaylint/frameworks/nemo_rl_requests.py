"""How a NeMo-RL fork's worker builds its requests: whether every `SamplingParams(...)` of the
module takes `top_k` and `temperature` as NeMo-RL's own code does (then the recipe's keys are
what is sent), read with CPython's parser (nothing of the tree runs)."""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import Iterator, Mapping

from .fork_source import callee_name, parse, statements


@lru_cache(maxsize=8)
def upstream_text(text: str) -> bool:
    module = parse(text)
    return module is not None and upstream_requests(module)


# How NeMo-RL's workers give a request its `top_k` and `temperature` (main @ 7ea279a
# `_build_sampling_params` and `generate_text`, v0.7.0 alike), the names they use resolved: the
# configuration's `top_k` (`null` is -1) and `temperature`, or a greedy request's 1 and 0.
_UPSTREAM_REQUESTS = frozenset(
    (
        ("top_k", "1 if greedy else self.cfg['top_k'] if self.cfg['top_k'] is not None else -1"),
        ("top_k", "(self.cfg['top_k'] if self.cfg['top_k'] is not None else -1) if not greedy else 1"),
        ("temperature", "0.0 if greedy else self.cfg['temperature']"),
        ("temperature", "self.cfg['temperature'] if not greedy else 0"),
    )
)


def upstream_requests(module: ast.Module) -> bool:
    """Whether every `SamplingParams(...)` of the worker takes `top_k` and `temperature` as
    NeMo-RL's own code does (so the configuration's keys are what is sent)."""
    for function in (node for node in ast.walk(module) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
        assigned = {
            target.id: statement.value
            for statement, _ in statements(function.body)
            if isinstance(statement, ast.Assign)
            for target in statement.targets
            if isinstance(target, ast.Name)
        }
        for call in (node for node in _own_nodes(function) if isinstance(node, ast.Call) and callee_name(node) == "SamplingParams"):
            given = {keyword.arg: keyword.value for keyword in call.keywords}
            if any((key, _resolved(given.get(key), assigned)) not in _UPSTREAM_REQUESTS for key in ("top_k", "temperature")):
                return False
    return True


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function outside the functions and classes it defines."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield node
            pending.extend(ast.iter_child_nodes(node))


def _resolved(node: ast.expr | None, assigned: Mapping[str, ast.expr], depth: int = 0) -> str:
    """The expression with the function's own names replaced by what they were assigned (twice
    at most), as source text."""
    if node is None:
        return ""

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.AST:
            value = assigned.get(name.id)
            return ast.parse(_resolved(value, assigned, depth + 1), mode="eval").body if value is not None and depth < 2 else name

    return ast.unparse(Substitute().visit(ast.parse(ast.unparse(node), mode="eval")).body)
