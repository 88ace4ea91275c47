"""Defaults of environment variables a module reads (`os.environ.get(NAME, default)`), and whether
the module may write the variable itself; shared by the run's inputs and the config paths."""

from __future__ import annotations

import ast

from .module import Module

_DOTENV = ("load_dotenv", "dotenv_values", "find_dotenv")  # a file read at run time may set any variable


def environment_fallback(node: ast.Call, module: Module) -> ast.expr | None:
    """The default of `os.environ.get(NAME, default)` / `os.getenv(NAME, default)` when the module
    does not write `NAME` (a path read from it rests on `NAME` being unset), else None."""
    if ast.unparse(node.func) not in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
        return None
    key = node.args[0] if node.args else None
    fallback = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "default"), None)
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)) or fallback is None or may_be_written(module, key.value):
        return None
    return fallback


def may_be_written(module: Module, name: str) -> bool:
    """Whether the module loads a dotenv file or names the variable `name` elsewhere, as a string
    (`os.environ["NAME"] = ...`) or a keyword (`os.environ.update(NAME=...)`); a Python name
    spelt the same (`NAME = int(os.environ.get("NAME", "8"))`) writes nothing."""
    text = module.source.text
    quoted = sum(text.count(f"{quote}{name}{quote}") for quote in ("'", '"'))
    keywords = module.__dict__.get("_keyword_names")
    if keywords is None:  # one walk a module, however many variables its reads name
        keywords = module.__dict__["_keyword_names"] = {node.arg for node in ast.walk(module.tree) if isinstance(node, ast.keyword)}
    return loads_dotenv(module) or quoted > 1 or name in keywords


def loads_dotenv(module: Module) -> bool:
    """Whether the module loads a dotenv file, which may set any variable."""
    return any(word in module.source.text for word in _DOTENV)
