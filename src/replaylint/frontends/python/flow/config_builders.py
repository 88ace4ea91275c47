"""A class a config mapping names (`dict(type=VLLM, path=..., model_kwargs=...)`, opencompass's and
mmengine's configs) and a builder makes by taking the class out of the mapping and calling it with
the rest (`model_type = cfg.pop("type")`, then `model_type(**cfg)`; `cfg["type"](**cfg)` too).

The builder's calls are candidates only: which class one makes is decided by the value the
reader gives its name where the call is read (the caller's mapping, each turn of a loop over
the configs), so a config of another class, or one read from outside the tree, makes none. The
builder sits in the config's module or in a module near it that imports it (opencompass's
`run.py` imports the configs, not the class's module)."""

from __future__ import annotations

import ast
import re

from .callsites import Call, calls
from .frames import Frame, reaching
from .import_statements import imports_module
from .module import Module

_SPREAD = ("(**",)  # a builder's call spreads the config: `model_type(**cfg)`
_IMPORTED = ("import_module(",)  # `getattr(importlib.import_module(path), name)(...)` made where it is taken
_TAKERS = ("pop", "get")  # `cfg.pop("type")`, `cfg.get("type")`
_MAX_CONFIG_MODULES = 4  # modules near the class's that name it in a config, followed


def builder_sites(reader, module: Module, cls: ast.ClassDef) -> list[tuple[Module, Call]]:
    """The calls that may make `cls` from a config that names it: in the class's module, in the
    modules near it that import it and name it as a mapping's value, and in the modules near
    those that import them."""
    found = [(module, site) for site in calls(module, _SPREAD) if takes_class(module, site)] if _names_as_value(module, cls.name) else []
    configs = reader.tree.importers_naming(module.path, (cls.name,))[:_MAX_CONFIG_MODULES]
    seen = {module.path}
    for path, text in configs:
        other = reader.tree.open_file(path, text)
        if other is None or not _names_as_value(other, cls.name):
            continue
        users = [(path, text)] + [
            (near, near_text)
            for near, near_text in reader.tree.nearby_texts(path)
            if near != path and imports_module(near_text, near, path)
        ]
        for user_path, user_text in users:
            if user_path in seen or "(**" not in user_text:
                continue
            seen.add(user_path)
            user = reader.tree.open_file(user_path, user_text)
            found += [(user, site) for site in calls(user, _SPREAD) if takes_class(user, site)] if user is not None else []
    return found + _factory_sites(reader, module)


def _factory_sites(reader, module: Module) -> list[tuple[Module, Call]]:
    """The calls of a class an importlib factory near the class's module makes from a dotted text
    (AgentBench's `InstanceFactory.create`: `cls = getattr(importlib.import_module(path), name)`,
    then `cls(**self.parameters)`; FlashRAG's `getattr(importlib.import_module("generator"),
    "VLLMGenerator")(config, **params)` in one expression): candidates, the text where each is read
    decides its class."""
    texts = [(p, t) for p, t in reader.tree.nearby_texts(module.path) if p != module.path and "import_module(" in t]
    found = []
    for path, text in texts[:_MAX_CONFIG_MODULES]:
        factory = reader.tree.open_file(path, text)
        if factory is None:
            continue
        words = (*_SPREAD, *_IMPORTED, *(f"{name}(" for name in _named_classes(factory)))
        found += [(factory, site) for site in calls(factory, words) if takes_class(factory, site)]
    return found


def _named_classes(module: Module) -> set[str]:
    """The names a module binds to a class a dotted text names (`cls = getattr(importlib.import_module(path), name)`;
    `mod = importlib.import_module(path)`, then `cls = getattr(mod, name)`)."""
    assigns = [node for node in ast.walk(module.tree) if isinstance(node, ast.Assign)]
    modules = {target.id for node in assigns if _imports_module(node.value) for target in node.targets if isinstance(target, ast.Name)}
    return {
        target.id
        for node in assigns
        if _imported_by_name(node.value) or _taken_from(node.value, modules)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _taken_from(node: ast.expr, modules: set[str]) -> bool:
    """`getattr(mod, name)` of a name in `modules`."""
    return _is_getattr(node) and isinstance(node.args[0], ast.Name) and node.args[0].id in modules  # type: ignore[attr-defined]


def _names_as_value(module: Module, name: str) -> bool:
    """Whether the module gives the class as a keyword's or a dict key's value (`type=VLLM`)."""
    return _may_name_as_value(module.source.text, name) and name in module.names_as_values()


def _may_name_as_value(text: str, name: str) -> bool:
    """Whether `name` may be a keyword's or a dict's value in `text`, told from the text: such a
    name follows `=`, `:` or `**` (past blanks and `(`) and no `(`, `.` or `[` follows it; a name
    at the start of a line may follow a comment or a continuation, and a text that is not ASCII
    may spell it otherwise (NFKC). `vllm/entrypoints/llm.py` and the four modules near it that
    name `LLM` are settled so: their walks cost 8 ms. (None of 76,708 pairs of a module of
    vLLM's tree and a name it holds that the walk finds is turned away.)"""
    if not text.isascii():
        return True
    for match in re.finditer(r"\b" + re.escape(name) + r"\b", text):
        before = match.start() - 1
        while before >= 0 and text[before] in " \t\f(":
            before -= 1
        after = match.end()
        while after < len(text) and text[after] in " \t\f":
            after += 1
        if (before < 0 or text[before] in "=:*\r\n\\") and (after == len(text) or text[after] not in "(.["):
            return True
    return False


def takes_class(module: Module, site: Call) -> bool:
    """Whether the call's function is taken out of a mapping by a key spelt out: `cfg["type"](...)`,
    or a name the scope binds once to `cfg.pop("type")` / `cfg.get("type")` / `cfg["type"]`, or to
    a class a dotted text names (`getattr(importlib.import_module(path), name)`)."""
    func = site.node.func
    if _key_taken(func) or _imported_by_name(func):
        return True
    if not isinstance(func, ast.Name):
        return False
    frame = Frame(module, site.scope, site.cls, None, site.placed)
    value = _bound_once(frame, func.id)
    if value is None:
        return False
    if _key_taken(value) or _imported_by_name(value):
        return True
    if not (_is_getattr(value) and isinstance(value.args[0], ast.Name)):  # type: ignore[attr-defined]
        return False
    made = _bound_once(frame, value.args[0].id)  # type: ignore[attr-defined]  # `mod = importlib.import_module(path)`
    return made is not None and _imports_module(made)


def _bound_once(frame: Frame, name: str) -> ast.expr | None:
    """The value a name is bound to where `frame` reads it, when one assignment binds it."""
    binding = reaching(frame, name)
    if binding is None or binding.kind != "value" or binding.element is not None:
        return None
    return binding.value


def _is_getattr(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) == 2


def _imports_module(node: ast.expr) -> bool:
    """`importlib.import_module(path)` (`import_module(path)`)."""
    return (
        isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and ast.unparse(node.func).endswith("import_module")
    )


def _imported_by_name(node: ast.expr) -> bool:
    """`getattr(importlib.import_module(path), name)`: a class a dotted text names."""
    return _is_getattr(node) and _imports_module(node.args[0])  # type: ignore[attr-defined]


def _key_taken(node: ast.expr) -> bool:
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _TAKERS and node.args):
        return False
    key = node.args[0]
    return isinstance(key, ast.Constant) and isinstance(key.value, str)
