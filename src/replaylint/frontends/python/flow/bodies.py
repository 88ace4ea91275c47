"""Values of request bodies the engine readers leave unknown: a token map (`logit_bias={42: 5.0}`,
keyed by token id), and the URL an HTTP client is given (`f"http://localhost:{PORT}/v1"`)."""

from __future__ import annotations

import ast
from typing import Any

from ....model import UNKNOWN
from .facts import Val
from .frames import Evaluates, Frame


def token_map(reader: Evaluates, node: ast.Dict, frame: Frame) -> Val | None:
    """A dict literal keyed only by integer literals, as its value; None for any other dict."""
    if not node.keys or not all(_token_id(key) for key in node.keys):
        return None
    values = [reader.evaluate(value, frame).value for value in node.values]
    return Val({key.value: value for key, value in zip(node.keys, values)}, span=frame.module.span(node))  # type: ignore[union-attr]


def _token_id(key: ast.expr | None) -> bool:
    return isinstance(key, ast.Constant) and isinstance(key.value, int) and not isinstance(key.value, bool)


def text(reader: Evaluates, node: ast.expr | None, frame: Frame) -> Any:
    """A string an expression is known to be (an f-string of known parts too), else UNKNOWN."""
    if isinstance(node, ast.JoinedStr):
        parts = [
            text(reader, part.value, frame)
            if isinstance(part, ast.FormattedValue) and part.format_spec is None
            else text(reader, part, frame)
            for part in node.values
        ]
        return "".join(str(part) for part in parts) if all(part is not UNKNOWN for part in parts) else UNKNOWN
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text(reader, node.left, frame), text(reader, node.right, frame)
        return left + right if isinstance(left, str) and isinstance(right, str) else UNKNOWN
    value = reader.evaluate(node, frame).value if node is not None else UNKNOWN
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else UNKNOWN
