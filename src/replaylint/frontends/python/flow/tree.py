"""The modules of the checked tree the value-flow reader may open: a name imported from the tree
(`from myproj.settings import VLLM_ARGS`, `from .settings import X`) is read from its file,
found from the importing file's folder up; names of the standard library and of well-known
packages are never looked for. Each module is parsed once per check, its facts kept; the files
read become dependencies of the result (a change in one re-judges the modules that use it).
Bounded: modules opened and work done per file; past a bound the value is unknown and the file
gets RPL902."""

from __future__ import annotations

import ast
import functools
import os
import re
import sys
from typing import Any, Callable

from ....files import read_head
from ....source import ExtractContext, SourceFile
from .frames import Frame
from .import_statements import imports_module
from .module import Module, parse

MAX_MODULES = 24  # other modules of the tree one file may open
_UP = 4  # folders above the importing file where a package may start
MAX_NEARBY = 100  # files of the folders around a module looked at for its users
_NEAR_UP = 2
_MAX_FOLDERS = 400  # folders walked to find them (a tree of empty folders costs no more)
_MAX_SIBLINGS = 16  # folders beside a namespace package looked into for scripts that import it
_MAX_SCRIPTS = 32  # scripts of those folders whose head is read
_HEAD = 8192  # where a script's imports are
SKIPPED = ("node_modules", "venv", "__pycache__")
_EXTERNAL = frozenset(
    (
        *getattr(sys, "stdlib_module_names", ()),
        "vllm",
        "torch",
        "ray",
        "transformers",
        "numpy",
        "datasets",
        "accelerate",
        "deepspeed",
        "omegaconf",
        "hydra",
        "pydantic",
        "click",
        "typer",
        "attr",
        "attrs",
        "peft",
        "wandb",
        "tqdm",
        "requests",
        "openai",
        "sglang",
        "fastapi",
        "uvicorn",
        "pytest",
    )
)


class Tree:
    """The checked file's module and the other modules of the tree it reads."""

    def __init__(self, module: Module, context: ExtractContext) -> None:
        self.module = module
        self.context = context
        self._by_path: dict[str, Module | None] = {os.path.normpath(module.path): module}
        self._resolved: dict[tuple[str, str], tuple[Module, str | None] | None] = {}
        self._module_texts: dict[str, tuple[str, str] | None] = {}
        self._importers: dict[tuple[str, tuple[str, ...]], list[tuple[str, str]]] = {}
        self.opened = 0
        # the held partials' memos (`held_partials`): the functions whose calls are being read (a call of one may
        # lead back), and each module's calls of parameters, by the id of its ast (with the ast)
        self.following_partials: set[int] = set()
        self.parameter_calls: dict[int, tuple[ast.Module, list]] = {}
        self.function_args: dict[int, tuple[ast.AST, list]] = {}  # what the calls of a function pass (`requests`), by its id
        # Whether constructions of a class are looked for in other modules (costly: up to
        # MAX_NEARBY files read): only when this module is read for the module whose names it uses.
        self.sites_elsewhere = False
        self._users: list[tuple[str, str]] = []  # modules known to import this tree's, wherever they are

    def add_user(self, user: Module) -> None:
        """A module that hands the server's words to this tree's module, read for what it passes though it may
        not be near it (marin's `experiments/` script making `lib/marin/src/marin/`'s `VllmEnvironment`)."""
        self._by_path.setdefault(os.path.normpath(user.path), user)
        self._users.append((user.path, user.source.text))
        self._importers.clear()  # those found before it are looked for again with it

    def charge(self, node: ast.AST, module: Module) -> None:
        offset = module.offset(node.lineno, node.col_offset) if module is self.module and hasattr(node, "lineno") else None  # type: ignore[attr-defined]
        self.context.budget.charge(4, offset)

    def too_deep(self, node: ast.AST | None, module: Module) -> None:
        offset = module.offset(node.lineno, node.col_offset) if node is not None and module is self.module else 0  # type: ignore[attr-defined]
        self.context.not_entered("calls nest deeper than the value-flow reader follows", offset)

    def frame_of(self, module: Module, method: ast.AST, cls: ast.ClassDef | None, frame: Frame) -> Frame:
        """The frame of another method of the object `frame` reads (`__init__` with the
        arguments the object was made with)."""
        node = getattr(method, "node", method)
        args = frame.init if getattr(node, "name", "") == "__init__" else None
        return Frame(module, node, cls, args, None, frame.depth + 1, frame.stack, frame.init, instance=frame.instance)

    # modules

    def modules(self) -> dict[str, Module]:
        """The modules read so far, by path."""
        return {path: module for path, module in self._by_path.items() if module is not None}

    def resolve(self, qualified: str, importer: Module | None = None) -> tuple[Module, str | None] | None:
        """The module of the tree a dotted name is in, and the member it names (None: the
        module itself); None when it is not in the tree."""
        importer = importer or self.module
        key = (importer.path, qualified)
        if key not in self._resolved:
            self._resolved[key] = self._find(qualified, importer)
        return self._resolved[key]

    def text_of(self, qualified: str) -> str | None:
        """The text of the tree's module a dotted name is in, read without parsing it (a cheap
        look before a parse); None when it is not in the tree."""
        found = self.path_and_text(qualified, self.module)
        return found[1] if found is not None else None

    def path_and_text(self, qualified: str, importer: Module) -> tuple[str, str] | None:
        """The path and text of the tree's module a dotted name `importer` imports is in, read
        without parsing it; None when it is not in the tree."""
        found = self._find(qualified, importer, self._read_path)
        return found[0] if found is not None else None

    def module_text(self, qualified: str) -> tuple[str, str] | None:
        """The path and text of the tree's module a dotted module name names (`proj.env`:
        `proj/env.py`), read without parsing; None when it is not in the tree."""
        if qualified not in self._module_texts:
            found = self._find(f"{qualified}.__name__", self.module, self._read_path)  # an attribute of it: the whole name is the module
            self._module_texts[qualified] = found[0] if found is not None else None
        return self._module_texts[qualified]

    def _read_path(self, base: str, parts: list[str]) -> tuple[str, str] | None:
        stem = os.path.join(base, *parts)
        for path in (stem + ".py", os.path.join(stem, "__init__.py")):
            text = self.context.read_text(path) if os.path.isfile(path) else None
            if text is not None:
                return path, text
        return None

    def _find(self, qualified: str, importer: Module, opener=None) -> tuple[Any, str | None] | None:
        level = len(qualified) - len(qualified.lstrip("."))
        parts = qualified[level:].split(".")
        if not level and (parts[0] in _EXTERNAL or len(parts) < 2):
            return None
        folder = os.path.dirname(importer.path) or "."
        if level:
            for _ in range(level - 1):
                folder = os.path.dirname(folder) or "."
            bases = [folder]
        else:  # only folders that hold the top package (a stat each, no read)
            ancestors = _ancestors(folder)
            bases = [b for b in ancestors if os.path.isdir(os.path.join(b, parts[0])) or os.path.isfile(os.path.join(b, parts[0] + ".py"))]
            bases = bases or _workspace_members(ancestors[::2], parts[0])
        for cut in (len(parts) - 1, len(parts)):
            module_parts, member = parts[:cut], parts[cut:]
            if not module_parts or len(member) > 1:
                continue
            for base in bases:
                found = (opener or self._open)(base, module_parts)
                if found is not None and member and _submodule_instead(found, member[0], base, module_parts):
                    continue  # `from proj import settings` of a package that does not bind it: the submodule
                if found is not None:
                    return found, (member[0] if member else None)
        return None

    def _open(self, base: str, parts: list[str]) -> Module | None:
        stem = os.path.join(base, *parts)
        for path in (stem + ".py", os.path.join(stem, "__init__.py")):
            module = self.open_file(path)
            if module is not None:
                return module
        return None

    def open_file(self, path: str, text: str | None = None) -> Module | None:
        """The module of a file of the tree, read once (`text`: already read), within the bound."""
        path = os.path.normpath(path)
        if path in self._by_path:
            return self._by_path[path]
        if self.opened >= MAX_MODULES:
            self.context.not_entered(f"it imports more modules of the tree than the {MAX_MODULES} one file may read", 0)
            return None
        text = self.context.read_text(path) if text is None else text
        self._by_path[path] = None
        if text is None:
            return None
        self.opened += 1
        self.context.budget.charge(len(text) // 2)
        self._by_path[path] = module = parse(SourceFile(path, text))
        return module

    def nearby_texts(self, path: str) -> list[tuple[str, str]]:
        """(path, text) of the Python files near `path` (`nearby`), read once per check and path."""
        memo = self.context.near  # (shared by the trees of one check)
        found = memo.get(path)
        if found is None:
            found = memo[path] = [(near, text) for near in nearby(path, memo=memo) if (text := self.context.read_text(near)) is not None]
        return found

    def importers_naming(self, path: str, names: tuple[str, ...]) -> list[tuple[str, str]]:
        """(path, text) of the Python files near the module at `path`, other than it, that name one
        of `names` and may import it (once per check: the readers that look for a definition's
        users ask again for each request and engine they read)."""
        key = (path, names)
        found = self._importers.get(key)
        if found is None:
            here = os.path.normpath(path)
            found = [
                (near, text)
                for near, text in self.nearby_texts(path)
                if any(name in text for name in names) and os.path.normpath(near) != here and imports_module(text, near, path)
            ]
            seen = {os.path.normpath(near) for near, _ in found}
            # the known users wherever they are (`docs/examples/run.py` of a namespace package `nearby` does not reach)
            found[:0] = [(user, text) for user, text in self._users if os.path.normpath(user) not in seen and any(n in text for n in names)]
            self._importers[key] = found
        return found

    def named_by_importers(self, path: str, name: str) -> bool:
        """Whether a Python file near the module at `path` that may import it names `name`."""
        return bool(self.importers_naming(path, (name,)))


def _ancestors(folder: str) -> list[str]:
    bases = []
    current = folder
    for _ in range(_UP + 1):
        bases.append(current)
        src = os.path.join(current, "src")
        bases.append(src)
        parent = os.path.dirname(current) or "."  # `rl` (a run from the tree's root) is under `.`
        if parent == current:
            break
        current = parent
    return bases


# the folders a monorepo keeps its installable members in, each in the `src` layout `uv init --package lib/NAME` writes
_MEMBER_FOLDERS = ("lib", "libs", "packages")


def _workspace_members(folders: list[str], top: str) -> list[str]:
    """The `src` folders of a monorepo's members named like the top package, under one of `folders`
    (marin's `experiments/` importing `marin.inference` from `lib/marin/src/marin/`): tried only
    where no folder up holds the package itself (a stat each)."""
    found = []
    for folder in folders:
        for kind in _MEMBER_FOLDERS:
            src = os.path.join(folder, kind, top, "src")
            if os.path.isdir(os.path.join(src, top)):
                found.append(src)
    return found


def _package(folder: str, parent: str, level: int, imported_beside: Callable[[], int]) -> bool:
    """Whether `folder` is a package the modules above it may import: it has `__init__.py`, or
    (a namespace package, in the first `_NEAR_UP` levels) scripts sit beside it or beside the
    namespace package it is in (`train.py` next to `rl/`, `rl_example.py` next to `coati/` of
    `coati/distributed/`), or a script in a folder beside it or beside the namespace package it
    is in imports it by its dotted name from there (`imported_beside`: the highest such level)."""
    if os.path.isfile(os.path.join(folder, "__init__.py")):
        return True
    if level >= _NEAR_UP:
        return False
    try:
        above = parent
        for _ in range(_NEAR_UP - level):
            if _holds_scripts(above):
                return True
            above = os.path.dirname(above)
        return imported_beside() >= level
    except OSError:
        return False


def _imported_beside(folder: str) -> int:
    """The highest of the first `_NEAR_UP` levels of the folders a module is in (0: its own) where
    a script in a folder beside that level's folder imports the module's folder by its dotted name
    from there (`environments/gsm8k_server.py` next to `atroposlib/`: `from atroposlib.openai_server
    import ...`; `playground/orz_7b_ppo.py` next to `orz/` of `orz/ppo/`: `from orz.ppo.trainer
    import ...`), or by the dotted name from the namespace package both sit in (`src/rank_llm/scripts/
    run_diver.py` next to `rerank/` of `rank_llm/rerank/pointwise/`: `from rank_llm.rerank.pointwise
    import ...`); -1 when none does. Only script heads are read, the highest level first."""
    levels = []
    current, names = folder, []
    for _ in range(_NEAR_UP):
        parent = os.path.dirname(current) or ("." if current != "." else "")
        if not parent or parent == current:
            break
        names.insert(0, os.path.basename(current))
        levels.append((current, parent, ".".join(names)))
        current = parent
    for level in reversed(range(len(levels))):
        current, parent, dotted = levels[level]
        siblings = [e.path for e in os.scandir(parent) if e.is_dir() and not e.name.startswith(".") and e.name not in SKIPPED]
        own = os.path.normpath(current)
        top = os.path.basename(os.path.normpath(parent))
        dotted_names = (dotted, f"{top}.{dotted}") if top.isidentifier() else (dotted,)
        if _imported_by_scripts(dotted_names, [s for s in siblings[:_MAX_SIBLINGS] if os.path.normpath(s) != own]):
            return level
    return -1


def _holds_scripts(folder: str) -> bool:
    with os.scandir(folder or ".") as entries:
        return any(entry.name.endswith(".py") and entry.is_file() for entry in entries)


def _imported_by_scripts(dotted_names: tuple[str, ...], folders: list[str]) -> bool:
    """Whether a script directly in one of `folders` imports the package named by one of
    `dotted_names` or a module of it (its head read)."""
    named = "|".join(re.escape(dotted) for dotted in dotted_names)
    imports = re.compile(rf"^[ \t]*(?:from|import)[ \t]+(?:{named})(?:\.|[ \t])", re.MULTILINE)
    read = 0
    for folder in folders:
        with os.scandir(folder) as entries:
            scripts = sorted(entry.path for entry in entries if entry.name.endswith(".py") and entry.is_file())
        for script in scripts[: _MAX_SCRIPTS - read]:
            read += 1
            if imports.search(read_head(script, _HEAD).decode("utf-8", "replace")):
                return True
        if read >= _MAX_SCRIPTS:
            return False
    return False


def nearby(path: str, suffix: str = ".py", memo: dict | None = None) -> list[str]:
    """Python files (or notebooks: `suffix` ".ipynb") in the folder of `path` and the folders
    above it (two levels, and on while the folder is a package, up to `_UP`: the scripts beside a
    deep package's top, `rollout_smoke.py` next to `verl/workers/rollout/`), nearest first, at
    most MAX_NEARBY; hidden folders and virtual environments are skipped. One walk finds both
    kinds, kept in `memo` (a check's `ExtractContext.near`) for the other."""
    if memo is not None and (path, suffix) in memo:
        return memo[(path, suffix)]
    found, whole = _walk_near(path, suffix)
    if memo is not None:
        # the other kind is known too when the walk did not stop early for this one's
        memo.update(((path, kind), files) for kind, files in found.items() if kind == suffix or whole)
    return found[suffix]


def _walk_near(path: str, suffix: str) -> tuple[dict[str, list[str]], bool]:
    """The files of both kinds near `path`, and whether the walk went as far as it may (it stops
    once it has MAX_NEARBY of `suffix`)."""
    folder = os.path.dirname(path) or "."
    roots = [folder]
    imported_beside = functools.cache(lambda: _imported_beside(folder))
    for level in range(_UP):
        # A relative folder one level down has "" above it: the working folder, "."
        parent = os.path.dirname(roots[-1]) or ("." if roots[-1] != "." else "")
        if not parent or parent == roots[-1] or not _package(roots[-1], parent, level, imported_beside):
            break
        if level >= _NEAR_UP and not os.path.isfile(os.path.join(roots[-1], "__init__.py")):
            break
        roots.append(parent)
    seen: dict[str, list[str]] = {".py": [], ".ipynb": []}
    visited = 0
    own = os.path.normpath(path)
    for root in roots:
        for current, folders, files in os.walk(root):
            visited += 1
            if visited > _MAX_FOLDERS:
                return seen, True
            folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED)
            for name in sorted(name for name in files if name.endswith((".py", ".ipynb"))):  # the path built only for those
                kind = seen[".py" if name.endswith(".py") else ".ipynb"]
                candidate = os.path.normpath(os.path.join(current, name))
                if len(kind) < MAX_NEARBY and candidate != own and candidate not in kind:
                    kind.append(candidate)
            if len(seen[suffix]) >= MAX_NEARBY:
                return seen, False
    return seen, True


def _submodule_instead(found: Any, name: str, base: str, parts: list[str]) -> bool:
    """Whether `name` of a package is its submodule: the package's `__init__` does not bind it
    and the submodule's file is there (Python looks for the attribute, then the submodule)."""
    stem = os.path.join(base, *parts, name)
    if not (os.path.isfile(stem + ".py") or os.path.isfile(os.path.join(stem, "__init__.py"))):
        return False
    if isinstance(found, tuple):  # the package's path and text only (a cheap look, `_read_path`)
        return re.search(rf"\b{re.escape(name)}\b", found[1]) is None
    return not (name in found.imports or name in found.functions or name in found.classes or found.binders(found.tree, name))


def in_vllm_package(path: str) -> bool:
    """Whether a module is part of vLLM's own package (the tree is vLLM, or holds a copy of it): its
    engine constructions are vLLM's implementation (`LLM.__init__` builds `EngineArgs` from its own
    parameters, whose callers are launches checked where they are), never a launch of the tree's."""
    parts = os.path.abspath(path).split(os.sep)
    for end in range(len(parts) - 1, 0, -1):
        if parts[end - 1] == "vllm":
            return _vllm_package(os.sep.join(parts[:end]))
    return False


@functools.lru_cache(maxsize=64)
def _vllm_package(folder: str) -> bool:
    return all(
        os.path.isfile(os.path.join(folder, *file)) for file in (("__init__.py",), ("engine", "arg_utils.py"), ("entrypoints", "llm.py"))
    )
