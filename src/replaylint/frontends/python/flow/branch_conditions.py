"""The branches an engine construction sits under that the program's defaults do not take
(`if args.backend == "sglang":` with `--backend`'s default "vllm"): the launch is real on that
path, so its findings stand, and they say on which path (`when --backend is 'sglang'`)."""

from __future__ import annotations

import ast
import re

from .frames import Evaluates, Frame
from .logic import decided
from .module import Guard, Placed, describe

# What a value read from a command-line option rests on (`parsers`, `run_inputs.as_cli`, `objects`):
# "backend comes from --backend, default 'vllm' (serve.py:8)".
_OPTION = re.compile(r" comes from (-{1,2}[\w.-]+), default ")


def untaken(reader: Evaluates, frame: Frame) -> list[str]:
    """The branches of the construction `frame` reads (`frame.at`) whose tests the reader decides
    against, each as a message says it."""
    at = frame.at
    if at is None:
        return []
    said = []
    for number, guard in enumerate(at.guards):
        if guard.opaque or guard.node is None:
            continue
        test = frame.reading(Placed(guard.node, at.guards[:number], at.order))  # type: ignore[arg-type]  # read at the test
        if decided(reader, (guard,), test) is None:
            said.append(_described(reader, guard, test))
    return said


def _described(reader: Evaluates, guard: Guard, frame: Frame) -> str:
    """`--backend is 'sglang'` for a comparison of an option's value with a literal, else the test as written."""
    node = guard.node
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        other = node.comparators[0]
        option = _option(reader, node.left, frame) if isinstance(other, ast.Constant) else None
        if option is not None:
            equal = isinstance(node.ops[0], ast.Eq) == guard.holds
            return f"{option} is {'' if equal else 'not '}{other.value!r}"  # type: ignore[union-attr]
    return describe(guard.test, guard.holds)


def _option(reader: Evaluates, node: ast.expr, frame: Frame) -> str | None:
    """The command-line option whose value `node` reads, as its default decides it."""
    read = reader.evaluate(node, frame)
    return next((found.group(1) for text, _ in read.assumptions if (found := _OPTION.search(text)) is not None), None)
