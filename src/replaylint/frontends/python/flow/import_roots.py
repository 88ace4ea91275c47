"""Where a module's program runs to import it: the folder that holds its top package."""

from __future__ import annotations

import os
import re

from ....regexes import on_use

_MAX_PACKAGE_DEPTH = 6


def import_root(read_text, path: str) -> str | None:
    """The folder that holds the module's top package (`axo/cli/config.py` with `axo/__init__.py`
    and `axo/cli/__init__.py`: the folder above `axo`), where its program runs to import it; for a
    script in no package, its own folder (`python rollout.py` beside `configs/`), as
    `OmegaConf.load` of a relative path reads it (`loaded`): a path that is not there stays unknown."""
    folder = os.path.dirname(path)
    for _ in range(_MAX_PACKAGE_DEPTH):
        if read_text(os.path.join(folder, "__init__.py")) is None:
            return folder
        folder = os.path.dirname(folder)
    return None


def own_root(path: str, imported: list[str]) -> tuple[str, str] | None:
    """The folder above the top package a module imports itself from by dotted name (`imported`: its
    imports' qualified names; `from docling.models.inference_engines.vlm.base import VlmEngineInput` in
    `docling/models/inference_engines/vlm/vllm_engine.py`, whose folders hold no `__init__.py`: the folder
    above `docling/`), and the module's dotted name from there; None when it imports none of its package so."""
    folders = []
    folder = os.path.dirname(os.path.abspath(path))
    while len(folders) < _MAX_PACKAGE_DEPTH and os.path.dirname(folder) != folder:
        folders.append(folder)
        folder = os.path.dirname(folder)
    for qualified in imported:
        parts = qualified.split(".")
        if qualified.startswith(".") or len(parts) < 2:
            continue
        for folder in folders:  # `docling/` above the module, and the import's next name in it (`docling/models/`): a stat each
            if os.path.basename(folder) == parts[0] and _holds(folder, parts[1]):
                root = os.path.dirname(folder)
                dotted = os.path.splitext(os.path.relpath(os.path.abspath(path), root))[0].replace(os.sep, ".")
                return (root if os.path.isabs(path) else os.path.relpath(root)), dotted
    return None


def _holds(folder: str, name: str) -> bool:
    return os.path.isfile(os.path.join(folder, name + ".py")) or os.path.isdir(os.path.join(folder, name))


def run_root(read_text, path: str) -> str | None:
    """Where the module's program runs from: above `import_root` of a module in a namespace
    package, the folder above the top package its own imports name (`own_root`: `from
    flagscale.inference.arguments import parse_config` in flagscale/inference/inference_aquila.py,
    no `__init__.py`: the repository's root, run with it on the path); else `import_root`."""
    top = import_root(read_text, path)
    if top is None or top != os.path.dirname(path):
        return top
    found = own_root(path, _IMPORTED.findall(read_text(path) or ""))
    return found[0] if found is not None else top


_IMPORTED = on_use(r"^[ \t]*(?:from|import)[ \t]+([\w.]+)", re.MULTILINE)
