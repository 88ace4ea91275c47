"""An attribute set once under a branch (`if enable_vllm: self.model_key = prepare_model(...)`,
data-juicer's ops): read when the object's construction decides every test of the branch to
hold with values it passes. A test decided by a default or not decided leaves it unknown."""

from __future__ import annotations

import ast

from .frames import Evaluates, Frame
from .logic import decided
from .module import Placed


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
