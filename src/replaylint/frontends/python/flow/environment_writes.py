"""A variable a module sets in its own environment before reading it: `os.environ["NAME"] = "1024"`
at the top of the module, read by `os.environ["NAME"]`, `os.environ.get("NAME", ...)` or
`os.getenv("NAME", ...)` in a function of it (or below the write).

The write runs when the module is imported, before any of its functions, and replaces whatever
the process's environment held: the value read is the one written, placed on the write. Only a
write made once, unconditionally, at the module's top level counts; the value is unknown where
the module loads a dotenv file, changes `os.environ` in another way (`update`, `setdefault`,
`pop`, `del`, `putenv`), writes the name again, or a Python file near it names the variable.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from .environment_defaults import loads_dotenv
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .module import Module

_ENVIRON = ("os.environ", "environ")
_CHANGES = ("update", "setdefault", "pop", "popitem", "clear", "putenv", "unsetenv")


def environment_written(reader: Evaluates, name: str, use: ast.AST, frame: Frame) -> Val:
    """The value the module's own top-level write gives `name` where `use` reads it, else NOTHING."""
    module = frame.module
    by_name, changed = _environment_writes(module)
    writes = by_name.get(name, [])
    if len(writes) != 1 or writes[0] not in module.tree.body or changed or loads_dotenv(module):
        return NOTHING
    write = writes[0]
    if frame.function is None and getattr(use, "lineno", 0) <= write.lineno:
        return NOTHING  # read at import, before the write
    quoted = (f'"{name}"', f"'{name}'")
    if any(word in text for path, text in reader.tree.nearby_texts(module.path) if path != module.path for word in quoted):  # type: ignore[attr-defined]
        return NOTHING  # another module may set it after the import
    value = write.value  # type: ignore[attr-defined]
    if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return NOTHING
    span = module.span(value)
    return replace(Val(value.value, span=span), origin=module.span(write), written=module.text(write))


def _environment_writes(module: Module) -> tuple[dict[object, list[ast.stmt]], bool]:
    """The module's statements that write or delete `os.environ[NAME]`, by NAME, and whether it changes
    `os.environ` in another way: one walk of the module, kept on it (a module's reads ask for each name)."""
    kept = module.__dict__.get("_environment_writes")
    if kept is None:
        by_name: dict[object, list[ast.stmt]] = {}
        for node in ast.walk(module.tree):
            for name in _written_names(node):
                by_name.setdefault(name, []).append(node)  # type: ignore[arg-type]
        kept = module.__dict__["_environment_writes"] = (by_name, _changed(module.tree))
    return kept


def _written_names(node: ast.AST) -> dict[object, None]:
    targets = (
        node.targets
        if isinstance(node, (ast.Assign, ast.Delete))
        else [node.target]
        if isinstance(node, (ast.AugAssign, ast.AnnAssign))
        else []
    )
    return dict.fromkeys(
        target.slice.value
        for target in targets
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and ast.unparse(target.value) in _ENVIRON
    )


def _changed(tree: ast.Module) -> bool:
    """Whether the module changes `os.environ` other than by `os.environ[NAME] = ...`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CHANGES:
            if ast.unparse(node.func.value) in (*_ENVIRON, "os"):
                return True
        if isinstance(node, ast.Delete) and any(isinstance(t, ast.Subscript) and ast.unparse(t.value) in _ENVIRON for t in node.targets):
            return True
    return False
