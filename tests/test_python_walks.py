"""The Python frontend's own walks of CPython's asts (`asts.walk`, `frames.expressions`) visit
the nodes `ast.walk` and `ast.iter_child_nodes` give, in the same order: the value flow's first
match and its messages depend on that order."""

from __future__ import annotations

import ast
from typing import Iterator

from replaylint.frontends.python.asts import walk
from replaylint.frontends.python.flow.frames import expressions

SOURCE = """
import os, vllm as v
from vllm import (LLM,
    SamplingParams as SP)

@decorate(lambda x: x + 1, key=[i for i in range(3) if i])
class Engine(Base, metaclass=Meta):
    field: int = 1
    def __init__(self, *args, model: str = "m", **kwargs) -> None:
        os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"
        self.llm = LLM(model, **{**kwargs, "return_sampling_mask": True})

async def run(a, /, b=f"{1!r:>{2}}", *, c: "T" = None):
    async with open(a) as f, open(b):
        async for x in f:
            yield (x := await g(x))
    try:
        del a[1:2:3], b
    except* (ValueError, TypeError) as error:
        raise RuntimeError() from error
    finally:
        global G
    match command.split():
        case [("go" | "run") as verb, *rest] if rest:
            pass
        case {"k": 1, **others}:
            pass
        case Point(x=0, y=0) | None:
            pass
    return {k: v for k, v in zip(a, b)}, {*a}, not a or b and c, -a if b else c < d <= e
"""


def _reference_expressions(node: ast.AST) -> Iterator[ast.AST]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(child for child in ast.iter_child_nodes(current) if not isinstance(child, (ast.stmt, ast.Lambda)))


def test_walk_is_ast_walk() -> None:
    tree = ast.parse(SOURCE)
    assert [id(node) for node in walk(tree)] == [id(node) for node in ast.walk(tree)]
    assert len(list(walk(tree))) > 200


def test_a_statement_s_own_expressions_are_its_children_outside_held_statements() -> None:
    tree = ast.parse(SOURCE)
    for statement in (node for node in ast.walk(tree) if isinstance(node, ast.stmt)):
        assert [id(node) for node in expressions(statement)] == [id(node) for node in _reference_expressions(statement)]
    decorated = tree.body[2]
    assert not any(isinstance(node, (ast.Assign, ast.Lambda)) for node in list(expressions(decorated))[1:])
