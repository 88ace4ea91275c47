"""The source of an RL framework's fork in the checked tree, read with CPython's parser (nothing
of the tree is imported or run): the literal values its code writes, statement by statement.
What `nemo_rl_fork` and `open_instruct_fork` share."""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from ..model import UNKNOWN, LineIndex, Setting, Span

MASK = "return_sampling_mask"


@dataclass(frozen=True)
class Written:
    """A value the fork's code writes, its line, and its text."""

    value: Any
    line: int
    text: str


def parse(text: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def snippet(text: str, node: ast.AST) -> str:
    """The node's source on one line."""
    return " ".join((ast.get_source_segment(text, node) or "").split())


def statements(body: list[ast.stmt], functions: bool = False, top: bool = True) -> Iterator[tuple[ast.stmt, bool]]:
    """Each statement with whether it runs unconditionally in its function (or module);
    `functions`: also the statements of the functions and classes defined in `body`."""
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if functions:
                yield from statements(statement.body, True, True)
            continue
        yield statement, top
        for name in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(statement, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.ExceptHandler)):
                nested = [s for item in inner for s in (item.body if isinstance(item, ast.ExceptHandler) else [item])]
                # a `with` block always runs; everything else is a condition
                yield from statements(nested, functions, top and isinstance(statement, (ast.With, ast.AsyncWith)) and name == "body")


def key_writes(statement: ast.stmt) -> Iterator[tuple[str, str, ast.expr]]:
    """`NAME["key"] = value` and `NAME.update(key=value)`, as (NAME, key, value)."""
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                key = literal(target.slice)
                if isinstance(key, str):
                    yield target.value.id, key, statement.value
    elif isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name):
            for keyword in call.keywords:
                if keyword.arg is not None:
                    yield func.value.id, keyword.arg, keyword.value
            for argument in call.args:
                if isinstance(argument, ast.Dict):
                    for key, value in zip(argument.keys, argument.values):
                        if key is not None and isinstance(name := literal(key), str):
                            yield func.value.id, name, value


def environment_writes(module: ast.Module) -> dict[str, tuple[Written, bool]]:
    """The `VLLM_*` variables the module's code writes with a literal where it runs unconditionally
    (at the top of the module or of a function): name -> (`NAME=value`, whether only when unset)."""
    found = {}
    for statement, top in statements(module.body, functions=True):
        variable = environment_write(statement) if top else None
        if variable is not None:
            name, value, only_unset = variable
            found[name] = (Written(value, statement.lineno, f"{name}={value}"), only_unset)
    return found


def environment_write(statement: ast.stmt) -> tuple[str, str, bool] | None:
    """`os.environ["VLLM_X"] = "v"` -> (name, value, False); `os.environ.setdefault(...)` -> True."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Subscript) and is_environ(target.value):
            name, value = literal(target.slice), literal(statement.value)
            if isinstance(name, str) and name.startswith("VLLM_") and isinstance(value, str):
                return name, value, False
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "setdefault" and is_environ(func.value) and len(call.args) == 2:
            name, value = literal(call.args[0]), literal(call.args[1])
            if isinstance(name, str) and name.startswith("VLLM_") and isinstance(value, str):
                return name, value, True
    return None


def is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"


def literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def placed(path: str, text: str, line: int, anchor: Span) -> Span:
    """Where a finding about the value a fork writes at `line` sits: that line of its file
    (`anchor`, the launch, when the text is not at hand)."""
    return line_span(path, text, line) if text and path and line > 0 else anchor


def line_span(path: str, text: str, line: int) -> Span:
    """The span of a line of a fork's file without its indentation: where a finding about the
    value the fork writes there sits."""
    index = LineIndex(path, text)
    start = index.offset(line, 1)
    written = index.line_text(line).rstrip()
    indent = len(written) - len(written.lstrip())
    return index.span(start + indent, start + len(written))


def environment_settings(path: str, text: str, env: Mapping[str, Setting], owner: str) -> dict[str, Setting]:
    """`env` with the `VLLM_*` writes of a fork's module (`environment_writes`) over it, each at its
    line; a `setdefault` gives way to a value `env` has."""
    module = parse(text) if text else None
    found = dict(env)
    for name, (written, only_unset) in environment_writes(module).items() if module is not None else ():
        if not (only_unset and name in found):
            where = f"{owner}'s {path.rsplit('/', 1)[-1]}:{written.line}"
            found[name] = Setting(name, written.value, line_span(path, text, written.line), f"{written.text} ({where})", implied=True)
    return found
