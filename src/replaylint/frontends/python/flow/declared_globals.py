"""Names the module's top level never binds, set by a function that declares them `global`
(Marco-o1's start_vllm_server.py: `global llm, tokenizer` then `llm = load_model(path)` in
`main()`, `llm` read in a Flask route). A function reading such a name reads what that one
assignment made: before it runs the name holds nothing at all. A second write, a binding of
another kind (a loop, a tuple, `del`) or a module that writes through `globals()` leaves it
unknown; so does a read at the top level, or in the setter itself."""

from __future__ import annotations

import ast
import re

from ..asts import walk
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .global_updates import globals_written
from .module import FUNCTIONS, Placed

_MAX_DEPTH = 6  # as the reader's calls


def unbound_global(reader: Evaluates, name: str, frame: Frame) -> Val:
    """`name`, bound nowhere at the module's top level, as `globals().update(...)` or the one
    function that declares it `global` binds it (NOTHING: not known)."""
    held = globals_written(reader, name, frame)
    if held is not NOTHING:
        return held
    function = frame.function
    text = frame.module.source.text
    if function is None or "globals()" in text or not re.search(rf"^[ \t]*global\b[^\n]*\b{re.escape(name)}\b", text, re.M):
        return NOTHING  # cheap: most modules declare no global
    write = _only_write(frame, name)
    if write is None or write[0] is function or id(write[0]) in frame.stack or frame.depth >= _MAX_DEPTH:
        return NOTHING
    setter, placed = write
    inner = Frame(frame.module, setter, None, None, placed, frame.depth + 1, (*frame.stack, id(setter)))
    return reader.evaluate(placed.statement.value, inner).via(frame.module.span(placed.statement))  # type: ignore[attr-defined]


def _only_write(frame: Frame, name: str) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, Placed] | None:
    """The one plain assignment (`name = ...`) of the functions declaring `name` global, when they bind it no other way."""
    module = frame.module
    setters = [node for node in walk(module.tree) if isinstance(node, FUNCTIONS) and _declares(node, name)]
    writes = [(setter, placed) for setter in setters for placed in module.binders(setter, name)]
    if len(writes) != 1:
        return None
    statement = writes[0][1].statement
    plain = isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
    return writes[0] if plain else None


def _declares(function: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Global) and name in node.names for node in walk(function))
