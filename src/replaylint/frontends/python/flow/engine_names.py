"""The names an engine's construction may be spelt with in a module: vLLM's engines, their
aliases (also imported inside a function), and the names `partial(LLM, ...)` is bound to."""

from __future__ import annotations

import ast
import re
from typing import Iterator

from .callsites import calls
from .module import Module
from .refs import ENGINE_CONFIGS, engine_name
from .registries import registered_into

_PARTIAL_TARGET = re.compile(r"([\w.]+)\s*(?::[^=]*)?=\s*(?:functools\.)?$")  # the line before `partial(`


def candidate_names(module: Module) -> set[str]:
    """Names a call of an engine may be spelt with: vLLM's, their aliases, partials."""
    names = {"LLM", "EngineArgs", "AsyncEngineArgs"}
    names |= {local for local, qualified in module.imports.items() if engine_name(qualified) or qualified in ENGINE_CONFIGS}
    names |= _imported_in_functions(module)
    text = module.source.text
    offset = text.find("partial(")
    if offset != -1:
        names.add("partial")  # `partial(LLM, ...)(...)`: a partial called where it is made
    while offset != -1:
        line = text[text.rfind("\n", 0, offset) + 1 : offset]
        match = _PARTIAL_TARGET.search(line)
        if match is not None:
            names.add(match.group(1).rsplit(".", 1)[-1])
        offset = text.find("partial(", offset + 1)
    return names


def registries(module: Module) -> set[str]:
    """Names bound to a dict literal that holds a `partial(...)` among its values (`ENGINES =
    {"replay": partial(LLM, ...)}`, then `ENGINES[kind](model)`)."""
    if "partial(" not in module.source.text:
        return set()
    found = set()
    for statement in _statements(module.tree):
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Dict) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and any(called_partial(value) for value in statement.value.values):
                found.add(target.id)
    return found


def called_partial(func: ast.expr) -> str | None:
    inner = func.func if isinstance(func, ast.Call) else None
    return "partial" if (isinstance(inner, ast.Name) and inner.id == "partial") or getattr(inner, "attr", None) == "partial" else None


_FROM_VLLM = re.compile(r"from[\s\\]+vllm")


def _imported_in_functions(module: Module) -> set[str]:
    """Names a function binds to vLLM's engines by its own import (`from vllm import LLM as VLLModel`).
    A module whose every `from vllm` starts a line of its own holds none (the walk costs 14 ms
    on a large test module)."""
    text = module.source.text
    if all(_at_top_level(text, match.start()) for match in _FROM_VLLM.finditer(text)):
        return set()
    found = set()
    for node in _statements(module.tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("vllm") and node not in module.tree.body:
            found |= {alias.asname or alias.name for alias in node.names if engine_name(f"{node.module}.{alias.name}")}
    return found


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")  # where statements (and handlers, cases) hold statements


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of a module at any depth (an import is one), without the expressions
    `ast.walk` would visit too (a tenth of the nodes of a large test module)."""
    waiting: list[ast.AST] = list(tree.body)
    while waiting:
        node = waiting.pop()
        yield node
        for block in _BLOCKS:
            waiting += getattr(node, block, None) or ()


def _at_top_level(text: str, offset: int) -> bool:
    """Whether `from` at `offset` starts a line that continues none (column 0, no `\\` before)."""
    before = offset - 1
    if before >= 0 and text[before] not in "\r\n":
        return False
    while before >= 0 and text[before] in "\r\n":
        before -= 1
    return before < 0 or text[before] != "\\"


def actor_class(func: ast.expr) -> ast.expr | None:
    """The class a Ray actor is made of, from the function of the call that makes it:
    `X.remote` and `X.options(...).remote` give `X`."""
    made = func.value if isinstance(func, ast.Attribute) and func.attr == "remote" else None
    if isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr == "options":
        made = made.func.value
    return made


def class_aliases(module: Module, cls: ast.ClassDef) -> set[str]:
    """The names the module binds to what it makes of the class: at module level any value that
    names it (`ENGINES = {"vllm": Engine}`) or a registry its decorator fills (`@register("vllm")`), in a
    function the class itself (`model_cls = VLLMModel`) or a Ray actor class of it (`actor_cls = ray.remote(Engine)`)."""
    found = registered_into(module, cls)
    for value, targets in _assignments(module.tree):
        if cls.name in value:
            found |= targets
    if f"= {cls.name}\n" in module.source.text:
        found |= module.names_bound_to(cls.name)
    for site in calls(module, (f"({cls.name})",)):  # `ray.remote(Engine)`, `ray.remote(num_gpus=1)(Engine)`
        statement = site.placed.statement
        if isinstance(statement, ast.Assign) and statement.value is site.node and site.scope is not module.tree:
            found |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return found


def _assignments(tree: ast.Module) -> list[tuple[str, set[str]]]:
    """The module-level assignments, each value as Python writes it back with the names it binds
    (once per module: each class of the module asks)."""
    known = getattr(tree, "_replaylint_assignments", None)
    if known is None:
        known = [
            (ast.unparse(node.value), {t.id for t in node.targets if isinstance(t, ast.Name)})
            for node in tree.body
            if isinstance(node, ast.Assign)
        ]
        tree._replaylint_assignments = known  # type: ignore[attr-defined]  (an ast is never changed: `asts`)
    return known
