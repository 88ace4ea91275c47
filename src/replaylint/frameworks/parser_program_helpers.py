"""The functions a program of the tree imports from its own package that stand for vLLM's parser
calls, as kserve's `huggingfaceserver/__main__.py` spells them with `vllm/utils.py`:

    def maybe_add_vllm_cli_parser(parser):      # grows the parser: `make_arg_parser(parser)`
        return make_arg_parser(parser)
    def build_vllm_engine_args(args):           # builds the engine arguments from the namespace
        return AsyncEngineArgs.from_cli_args(args)

and the names (classes, functions) whose module builds an engine from engine arguments
(`VLLMModel` of `vllm/vllm_model.py`, which enters `build_async_engine_client_from_engine_args`).
Each module is read (never run) only when the program imports it from its own package (a relative
import, or one under the program's top package) and its text names one of those calls."""

from __future__ import annotations

import ast
import os
import re
from typing import Callable

from ..records import record
from ..regexes import on_use

ReadText = Callable[[str], "str | None"]

GROWS = ("make_arg_parser", "add_cli_args")  # vLLM's calls that add its engine (and server) options
_BUILDS_ENGINE = on_use(r"(?:from_engine_args|\bcreate_engine_config|\bfrom_vllm_config)\(")  # also `build_..._from_engine_args(`
_MAX_PACKAGE_DEPTH = 6


@record(unsafe_hash=True)
class Helpers:
    """Names the program imports from its package: `grows` return the parser given them grown by
    vLLM's (`serves`: with `make_arg_parser`, vLLM's server options too); `builds` return
    `from_cli_args` of the namespace given them; `engines` build an engine from what they are given."""

    grows: frozenset[str] = frozenset()
    serves: frozenset[str] = frozenset()
    builds: frozenset[str] = frozenset()
    engines: frozenset[str] = frozenset()


NONE = Helpers()


def program_helpers(tree: ast.Module, path: str, read_text: ReadText) -> Helpers:
    """The helpers of the modules the program at `path` imports from its own package."""
    grows: set[str] = set()
    serves: set[str] = set()
    builds: set[str] = set()
    engines: set[str] = set()
    for module_path, names in _own_imports(tree, path, read_text):
        text = read_text(module_path)
        if text is None:
            continue
        wanted = {alias.name: alias.asname or alias.name for alias in names}
        if any(call in text for call in (*GROWS, "from_cli_args")):
            found = _returning_helpers(text)
            grows.update(wanted[name] for name in found[0] if name in wanted)
            serves.update(wanted[name] for name in found[1] if name in wanted)
            builds.update(wanted[name] for name in found[2] if name in wanted)
        if _BUILDS_ENGINE.search(text):
            engines.update(wanted[name] for name in _defined_names(text) & set(wanted))
    return Helpers(frozenset(grows), frozenset(serves), frozenset(builds), frozenset(engines))


def _own_imports(tree: ast.Module, path: str, read_text: ReadText) -> list[tuple[str, list[ast.alias]]]:
    """(the file, the names) of each `from MODULE import names` of the program's own package."""
    folder = os.path.dirname(path)
    found: list[tuple[str, list[ast.alias]]] = []
    root: str | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module is None and not node.level:
            continue
        if node.level:
            base = folder
            for _ in range(node.level - 1):
                base = os.path.dirname(base)
        else:
            root = root if root is not None else _import_root(folder, read_text)
            if root is None or not _is_package(os.path.join(root, str(node.module).split(".")[0]), read_text):
                continue
            base = root
        module = os.path.normpath(os.path.join(base, *str(node.module).split("."))) if node.module else base
        if node.module:
            found.append((module + ".py", node.names))
        found.append((os.path.join(module, "__init__.py"), node.names))
    return found


def _import_root(folder: str, read_text: ReadText) -> str | None:
    """The folder above the program's top package (None: the program is in no package)."""
    if not _is_package(folder, read_text):
        return None
    for _ in range(_MAX_PACKAGE_DEPTH):
        parent = os.path.dirname(folder)
        if parent == folder or not _is_package(parent, read_text):
            return parent
        folder = parent
    return None


def _is_package(folder: str, read_text: ReadText) -> bool:
    return read_text(os.path.join(folder, "__init__.py")) is not None


def _returning_helpers(text: str) -> tuple[set[str], set[str], set[str]]:
    """The functions of a module that return vLLM's parser grown (all, and those by
    `make_arg_parser`) or `from_cli_args` of a parameter."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set(), set(), set()
    grows: set[str] = set()
    serves: set[str] = set()
    builds: set[str] = set()
    for function in tree.body:
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        parameters = {argument.arg for argument in function.args.args}
        for node in ast.walk(function):
            call = node.value if isinstance(node, ast.Return) else None
            if not isinstance(call, ast.Call) or len(call.args) != 1 or not _names_one(call.args[0], parameters):
                continue
            name = call_name(call)
            if name in GROWS:
                grows.add(function.name)
                if name == "make_arg_parser":
                    serves.add(function.name)
            elif name == "from_cli_args":
                builds.add(function.name)
    return grows, serves, builds


def _defined_names(text: str) -> set[str]:
    """The classes and functions a module defines at its top level (read by their lines)."""
    return set(re.findall(r"(?m)^(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", text))


def _names_one(node: ast.expr, names: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in names


def call_name(call: ast.Call) -> str | None:
    """`f` of `f(...)` and of `x.f(...)`."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
