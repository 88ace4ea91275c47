"""`self.x` a setup method writes from its parameter, read in another method of the object:
torchtune's async GRPO recipe makes `recipe = RayGRPORecipe()`, calls `recipe.setup(cfg)` once,
and `setup` stores `self.cfg = cfg` that `_create_data_collectors` hands to the actors it makes.
The method is read with the arguments of its one call on an object of the class in the class's
module; none, or more than one (each may give another value), leaves the parameter unknown."""

from __future__ import annotations

import ast

from .frames import Evaluates, Frame
from .method_calls import method_frames


def setup_frame(reader: Evaluates, frame: Frame, method: ast.FunctionDef | ast.AsyncFunctionDef, home: Frame) -> Frame:
    """`home`, the frame `method` of the object read in `frame` runs in, with the arguments of the
    method's one call in the class's module; `home` as it was when there is not exactly one."""
    module, cls = frame.module, frame.cls
    if home.args is not None or cls is None or f".{method.name}(" not in module.source.text:
        return home  # a cheap look before the calls are read
    called = method_frames(reader, module, cls, method, home, lambda matches, words: (), 2)
    return called[0] if len(called) == 1 else home
