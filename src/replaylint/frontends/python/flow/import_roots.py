"""Where a module's program runs to import it: the folder that holds its top package."""

from __future__ import annotations

import os

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
