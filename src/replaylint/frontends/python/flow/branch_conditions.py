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


def never_runs(reader: Evaluates, guards: tuple[Guard, ...], frame: Frame) -> bool:
    """Whether a statement under `guards` (`frame.at` is the statement) sits on a branch that values
    the tree fixes decide against: a comparison with literals (an `if`, or a `case "vllm":` of a
    `match`) of a constant, or of a config file the program opens by its own path (`backend: hf`),
    resting on no default a run may change (an option's, an environment variable's)."""
    at = frame.at
    if at is None:
        return False
    for number, guard in enumerate(guards):
        if guard.opaque or guard.node is None or not _literal_comparison(guard.node):
            continue
        assumed: list[str] = []
        test = frame.reading(Placed(guard.node, guards[:number], at.order))  # type: ignore[arg-type]  # read at the test
        if decided(reader, (guard,), test, assumed) is None and not assumed:
            return True
    return False


def _literal_comparison(node: ast.expr) -> bool:
    """`x == "vllm"`, `x != "hf"`, `x in ("a", "b")`, and `or` of them (a `case "a" | "b":`)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return all(_literal_comparison(value) for value in node.values)
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn))):
        return False
    other = node.comparators[0]
    items = other.elts if isinstance(other, (ast.Tuple, ast.List, ast.Set)) else [other]
    return all(isinstance(item, ast.Constant) and isinstance(item.value, (str, int)) for item in items)
