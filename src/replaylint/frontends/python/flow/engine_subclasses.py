"""A class of the tree that subclasses vLLM's engine and keeps its `__init__` (THUDM/LongCite's
`class LongCiteModel(LLM)`, whose methods build `SamplingParams` and call `self.generate`): its
construction is the engine's, read with vLLM's own parameters, in its module or in one that
imports it (also inside a function: LongCite's demo)."""

from __future__ import annotations

import ast
import re
from typing import Any

from ....regexes import on_use
from .module import FUNCTIONS, Module
from .objects import Class
from .refs import Qualified, engine_name

# `from pkg.models import LongCiteModel` (also `as M`, several names, indented in a function); within parentheses over lines
_FROM_IMPORT = on_use(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([\w\s,]+)\)|([\w \t,]+))", re.M)
_OWN_CONSTRUCTION = ("__init__", "__new__", "__init_subclass__")  # what would make the object another way


def keeps_engine_init(module: Module, cls: ast.ClassDef) -> bool:
    """One base, vLLM's engine as the module imports it (`LLM`, `vllm.LLM`), no class decorator
    (a `@dataclass` writes an `__init__`) or metaclass, and no `__init__` or `__new__` of its own."""
    if len(cls.bases) != 1 or cls.keywords or cls.decorator_list:
        return False
    if any(isinstance(s, FUNCTIONS) and s.name in _OWN_CONSTRUCTION for s in cls.body):
        return False
    if any(isinstance(s, (ast.Assign, ast.AnnAssign)) and _binds_construction(s) for s in cls.body):
        return False  # `__init__ = other_init`
    qualified = _imported_name(module, cls.bases[0])
    return qualified is not None and engine_name(qualified)


def engine_class(ref: object) -> bool:
    """Whether a call of `ref` builds vLLM's engine: the engine itself, or a class that keeps its `__init__`."""
    if isinstance(ref, Qualified):
        return engine_name(ref.name)
    return isinstance(ref, Class) and keeps_engine_init(ref.module, ref.node)


def engine_subclass_names(reader: Any, module: Module) -> set[str]:
    """The names a construction of such a class may be spelt with in the module: its own
    top-level classes that `keeps_engine_init` holds for, and those it imports from the tree."""
    own = {s.name for s in module.tree.body if isinstance(s, ast.ClassDef) and keeps_engine_init(module, s)}
    return own | imported_engine_classes(reader, module)


def _binds_construction(statement: ast.Assign | ast.AnnAssign) -> bool:
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    return any(isinstance(t, ast.Name) and t.id in _OWN_CONSTRUCTION for t in targets)


def _imported_name(module: Module, base: ast.expr) -> str | None:
    """The dotted name a base spells through the module's imports (`LLM` of `from vllm import LLM`,
    `vllm.LLM` of `import vllm`); None for anything else."""
    parts: list[str] = []
    while isinstance(base, ast.Attribute):
        parts.insert(0, base.attr)
        base = base.value
    if not isinstance(base, ast.Name) or base.id not in module.imports:
        return None
    return ".".join((module.imports[base.id], *parts))


def _called_names(match: re.Match[str], text: str) -> list[tuple[str, str]]:
    """The (name, local name) pairs of an import statement's match that are capitalised and called in `text`."""
    if match.group(1).partition(".")[0] == "vllm":
        return []
    pairs = []
    for alias in (match.group(2) or match.group(3)).split(","):
        name, _, local = (part.strip() for part in alias.partition(" as "))
        if name[:1].isupper() and f"{local or name}(" in text:
            pairs.append((name, local or name))
    return pairs


def imported_engine_classes(reader: Any, module: Module) -> set[str]:
    """The names the module calls that it imports from another module of the tree that defines
    them as a class keeping the engine's `__init__` (`reader`: the `reader.Reader`)."""
    return {local for qualified, local in _imported_calls(module.source.text) if _keeps_engine_init_at(reader, module, qualified)}


def may_import_engine_class(tree: Any, importer: Any, text: str) -> bool:
    """Whether a text may call such a class, by the texts alone (no parse): a module of the tree it
    imports a called name from defines a class of that name with `LLM` among its bases (`tree`: the
    `tree.Tree`; `importer`: what holds the file's path)."""
    return any(_subclass_in_text(tree, importer, qualified) for qualified, _ in _imported_calls(text))


def _imported_calls(text: str) -> list[tuple[str, str]]:
    """(dotted name, local name) of the capitalised names the text imports from a module other than vLLM's and calls."""
    found = []
    for match in _FROM_IMPORT.finditer(text) if "import" in text else ():
        base = match.group(1)
        found += [(f"{base}.{name}" if base.strip(".") else f"{base}{name}", local) for name, local in _called_names(match, text)]
    return found


def _subclass_in_text(tree: Any, importer: Any, qualified: str) -> bool:
    name = qualified.rpartition(".")[2]
    text = tree.path_and_text(qualified, importer)
    return text is not None and any("LLM" in bases for bases in re.findall(rf"\bclass\s+{re.escape(name)}\s*\(([^)]*)\)", text[1]))


def _keeps_engine_init_at(reader: Any, module: Module, qualified: str) -> bool:
    if not _subclass_in_text(reader.tree, module, qualified):
        return False  # the module's text says no such subclass, without a parse (most imported names are not)
    found = reader.tree.resolve(qualified, module)
    if found is None or found[1] is None:
        return False
    home, member = found
    cls = home.classes.get(member)
    return cls is not None and keeps_engine_init(home, cls)
