"""Whether a module near another may import it, told from its import statements' text before
it is parsed: the modules one file may read are few, so a file that only calls a function of
the same name is never opened."""

from __future__ import annotations

import os
import re

_IMPORT_STATEMENT = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]*(?:\([^)]*\)|[^\n]*)|import[ \t][^\n]*)", re.MULTILINE)
_MAX_PACKAGES = 4


def imports_module(text: str, importer: str, path: str) -> bool:
    """Whether an import statement of `text` (the file at `importer`) may bring in the module at
    `path`: a relative one whose package holds it, or one that names the module or a package it
    is in (`from t import build`, `import pkg.t`, `from pkg.sub import build` re-exported by
    `pkg/sub/__init__.py`). A file that only calls a function of the same name (`from
    setuptools import build`) is not opened: the tree's modules one file may read are few."""
    names = {os.path.splitext(os.path.basename(path))[0]}
    folder = os.path.dirname(path)
    for _ in range(_MAX_PACKAGES):
        if not folder or not os.path.isfile(os.path.join(folder, "__init__.py")):
            break
        names.add(os.path.basename(folder))
        folder = os.path.dirname(folder)
    target = os.path.normpath(path)
    for statement in _IMPORT_STATEMENT.finditer(text):
        words = statement.group().split()
        if words[0] == "from" and words[1].startswith("."):
            if _within(target, _relative_base(importer, words[1])):
                return True
        elif names.intersection(re.findall(r"\w+", statement.group())):
            return True
    return False


def _relative_base(importer: str, dotted: str) -> str:
    """The folder or module stem a relative import names (`..pkg.mod` from `a/b/f.py`: `a/pkg/mod`)."""
    level = len(dotted) - len(dotted.lstrip("."))
    base = os.path.dirname(importer)
    for _ in range(level - 1):
        base = os.path.dirname(base)
    rest = dotted[level:]
    return os.path.normpath(os.path.join(base, *rest.split("."))) if rest else os.path.normpath(base or ".")


def _within(target: str, base: str) -> bool:
    stem = os.path.splitext(target)[0]
    return stem == base or stem.startswith(base + os.sep) or (base == "." and not os.path.isabs(stem))
