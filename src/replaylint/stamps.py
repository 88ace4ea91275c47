"""Stamps: what a warm run compares instead of reading a file or listing a folder again.

A stamp is a path's modification time and size (None when the path does not exist). Creating,
removing or renaming a file changes its folder's stamp, so the stamps of the folders listed and
the files read tell whether an answer made from them still holds.
"""

from __future__ import annotations

import os
from typing import Dict, Optional, Tuple

Stamp = Optional[Tuple[int, int]]  # (mtime_ns, size); None: the path does not exist


def stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size)


def still_true(stamps: Dict[str, Stamp]) -> bool:
    return all(stamp(path) == expected for path, expected in stamps.items())
