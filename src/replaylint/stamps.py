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


def from_plain(value: object) -> Dict[str, Stamp] | None:
    """Stamps as JSON gives them back (a stamp is a list there, a tuple before it is written),
    or None when `value` is not stamps: what the result cache stores is checked before it is
    believed."""
    if type(value) is not dict:
        return None
    stamps: Dict[str, Stamp] = {}
    for path, found in value.items():
        if found is None:
            stamps[path] = None
        elif type(found) in (list, tuple) and len(found) == 2 and type(found[0]) is int and type(found[1]) is int:
            stamps[path] = (found[0], found[1])
        else:
            return None
    return stamps
