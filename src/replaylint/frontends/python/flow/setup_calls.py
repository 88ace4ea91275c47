"""`self.x` a setup method writes from its parameter, read in another method of the object:
torchtune's async GRPO recipe makes `recipe = RayGRPORecipe()`, calls `recipe.setup(cfg)` once,
and `setup` stores `self.cfg = cfg` that `_create_data_collectors` hands to the actors it makes.
The method is read with the arguments of its one call on an object of the class in the class's
module; none, or more than one (each may give another value), leaves the parameter unknown.
A method no such call reaches but `__init__` calls once on `self` (DataFlow's
`LocalModelLLMServing_vllm.__init__` handing its keywords to `self.load_model(...)`, which stores
`self.vllm_temperature`) is read with what `__init__` gives it, `__init__` read with the object's
construction."""

from __future__ import annotations

import ast

from .class_order import init_of
from .frames import Evaluates, Frame
from .method_calls import from_init, method_frames
from .module import Module


def setup_frame(reader: Evaluates, frame: Frame, method: ast.FunctionDef | ast.AsyncFunctionDef, home: Frame) -> Frame:
    """`home`, the frame `method` of the object read in `frame` runs in, with the arguments of the
    method's one call in the class's module; `home` as it was when there is not exactly one."""
    module, cls = frame.module, frame.cls
    if home.args is not None or cls is None or f".{method.name}(" not in module.source.text:
        return home  # a cheap look before the calls are read
    called = method_frames(reader, module, cls, method, home, lambda matches, words: (), 2)
    init = init_of(module, cls)
    if not called and home.init is not None and init is not None and _called_by_init_only(module, init, method.name):
        called = [found for found in from_init(reader, module, init, method, [home], 2) if found.args is not None]
    return called[0] if len(called) == 1 else home


def _called_by_init_only(module: Module, init: ast.AST, name: str) -> bool:
    """Whether the module calls `name` only in `__init__` (`self.load_model(...)`): another call (a
    `reload()` calling it again) may store other values."""
    call = f".{name}("
    return call in module.text(init) and module.source.text.count(call) == module.text(init).count(call)
