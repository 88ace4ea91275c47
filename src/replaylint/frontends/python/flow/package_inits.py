"""The packages around a module: importing `inference.local.glm` runs `inference/__init__.py` and
`inference/local/__init__.py` first, so what they write in `os.environ` holds before the module's
own statements run (`environ`)."""

from __future__ import annotations

import os
import re
from typing import Callable

from ....source import ExtractContext
from .module import Module

_MAX_PACKAGES = 6  # package folders looked up from a module
_MAX_BESIDE = 40  # files beside a module read for a bare import of it


def package_inits(path: str, read_text: Callable[[str], str | None]) -> list[str]:
    """The `__init__.py` of the packages a module is in, innermost first."""
    found: list[str] = []
    folder = os.path.dirname(os.path.normpath(path))
    while len(found) < _MAX_PACKAGES:
        init = os.path.join(folder, "__init__.py")
        if read_text(init) is None:
            break
        found.append(init)
        parent = os.path.dirname(folder)
        if parent == folder or not parent:
            break
        folder = parent
    return found


def imported_bare(module: Module, context: ExtractContext) -> bool:
    """Whether a file beside the module imports it by its bare name (`from glm import get_model`)."""
    folder, name = os.path.split(os.path.normpath(module.path))
    stem = name.removesuffix(".py")
    pattern = re.compile(rf"^\s*(?:from\s+{re.escape(stem)}\s+import\b|import\s+{re.escape(stem)}\b)", re.MULTILINE)
    beside = sorted(entry for entry in context.list_folder(folder or ".") if entry.endswith(".py") and entry != name)
    if len(beside) > _MAX_BESIDE:
        return True
    return any(pattern.search(context.read_text(os.path.join(folder, entry)) or "") for entry in beside)
