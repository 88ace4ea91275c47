"""An attribute set once under a branch (`if enable_vllm: self.model_key = prepare_model(...)`,
data-juicer's ops): read when the object's construction decides every test of the branch to
hold with values it passes. A test decided by a default or not decided leaves it unknown. Also
the writes an `except ImportError:` body makes in place of its `try`'s (`tried_first`)."""

from __future__ import annotations

import ast

from .frames import Evaluates, Frame
from .logic import decided
from .module import Placed


def tried_first(sets: list) -> list:
    """The writes of `self.x` without those of an `except ImportError:` body whose `try` imports and
    makes the same write (olmo-eval's `try: from vllm.v1.engine.async_llm import AsyncLLM`, `self.engine =
    AsyncLLM.from_engine_args(...)`, `except ImportError:` the older engine): the program run where its
    imports succeed takes the `try`'s, as a name imported both ways is the `try`'s (`frames`). `sets`:
    (method, placed statement, value, tuple element) of each write."""
    kept = [found for found in sets if not _stands_in(found[1], sets)]
    return kept if kept else sets


def _stands_in(placed: Placed, sets: list) -> bool:
    for guard in placed.guards:
        attempt = guard.fallback_of
        if attempt is None:
            continue
        tried = {id(node) for statement in attempt.body for node in ast.walk(statement)}
        imports = any(isinstance(node, (ast.Import, ast.ImportFrom)) for statement in attempt.body for node in ast.walk(statement))
        if imports and any(id(other[1].statement) in tried for other in sets if other[1] is not placed):
            return True
    return False


def taken(reader: Evaluates, placed: Placed, home: Frame) -> bool:
    """Whether the construction read in `home` takes the branch `placed` sits under."""
    if home.args is None and home.init is None:
        return False
    assumed: list[str] = []
    left = decided(reader, placed.guards, home.reading(placed), assumed)
    return (
        left == () and not assumed and all(guard.node is not None and not isinstance(guard.node, ast.Constant) for guard in placed.guards)
    )


def home_of(reader, frame: Frame, method: ast.AST) -> Frame:
    """The frame a method of the object read in `frame` runs in (`reader.tree.frame_of`)."""
    return frame if method is frame.scope else reader.tree.frame_of(frame.module, method, frame.cls, frame)
