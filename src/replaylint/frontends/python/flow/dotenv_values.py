"""A variable python-dotenv's `load_dotenv()` gives a module: the value the tree's `.env` file holds.

`load_dotenv()` with no path looks for `.env` from the folder of the file that calls it upward
(`find_dotenv`, python-dotenv 1.x `main.py`) and, without `override=True`, sets only the variables
the process does not have: the file's value is the default the program uses as written, resting
on the variable being unset. A variable the file does not hold, a `load_dotenv(path)` of another
file, `override=True`, a module that also writes the variable or loads a file some other way
(`dotenv_values`, `find_dotenv(usecwd=True)`, which looks from the working folder) leave it unknown.
"""

from __future__ import annotations

import ast
import os

from ....readers.env_file import parse
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .module import Module

_LOADERS = ("load_dotenv", "dotenv.load_dotenv")
_OTHER_READS = ("dotenv_values", "find_dotenv", "DotEnv")
_MAX_LEVELS = 8


def dotenv_default(reader: Evaluates, name: str, frame: Frame) -> Val:
    """The value the `.env` a module loads gives `name` (resting on `name` being unset), else NOTHING."""
    module = frame.module
    if not _loads_plainly(module) or any(word in module.source.text for word in _OTHER_READS):
        return NOTHING
    quoted = sum(module.source.text.count(f"{quote}{name}{quote}") for quote in ("'", '"'))
    if quoted > 1:
        return NOTHING  # written or read again elsewhere in the module
    found = _dotenv_file(reader, module.path)
    setting = parse(*found).get(name) if found is not None else None
    if setting is None or not isinstance(setting.value, str) or setting.value_span is None:
        return NOTHING
    span = setting.value_span
    return Val(setting.value, span=span, origin=span, written=setting.spelling, assumptions=((f"`{name}` is unset", span),))


def _loads_plainly(module: Module) -> bool:
    """Whether the module calls `load_dotenv()` once at its top level, with no path and no override."""
    calls = [
        node.value
        for node in module.tree.body
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) in _LOADERS
    ]
    every = sum(1 for node in ast.walk(module.tree) if isinstance(node, ast.Call) and ast.unparse(node.func) in _LOADERS)
    return len(calls) == 1 and every == 1 and not calls[0].args and not calls[0].keywords


def _dotenv_file(reader: Evaluates, path: str) -> tuple[str, str] | None:
    """(path, text) of the nearest `.env` at or above the module's folder."""
    folder = os.path.dirname(path)
    for _ in range(_MAX_LEVELS):
        candidate = os.path.join(folder, ".env")
        text = reader.tree.context.read_text(candidate)  # type: ignore[attr-defined]
        if text is not None:
            return candidate, text
        if folder in ("", ".", os.sep):
            return None
        folder = os.path.dirname(folder)
    return None
