"""Whether what a method sends is made from its parameters, also through the names its body binds from
them before (docling's `first_input = input_batch[0]`, then `SamplingParams(temperature=first_input.temperature)`
sent by `self.llm.generate(inputs, sampling_params=sampling_params)`): the method's callers then decide the
request, and `requests` looks for them in the modules near its class too."""

from __future__ import annotations

import ast

from ..asts import walk
from .frames import parameters


def made_from_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef, sent: ast.expr | None) -> bool:
    if sent is None:
        return False
    names = {param.arg for param in parameters(function)} - {"self", "cls"}
    if not names:
        return False
    bound = sorted(
        (node for node in walk(function) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.For)) and node.lineno <= sent.lineno),
        key=lambda node: (node.lineno, node.col_offset),
    )
    for node in bound:  # in the order they are written: a name bound from a parameter, or from such a name
        value = node.iter if isinstance(node, ast.For) else node.value
        if value is not None and _names(value) & names:
            targets = [node.target] if isinstance(node, (ast.For, ast.AnnAssign)) else node.targets
            names |= {n.id for target in targets for n in walk(target) if isinstance(n, ast.Name)}
    return bool(_names(sent) & names)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}
