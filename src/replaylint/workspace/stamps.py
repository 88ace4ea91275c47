"""Stamps: what a warm run compares instead of reading a file or listing a folder again.

A stamp is a path's modification time, size, change time and inode (None when the path does not
exist). Creating, removing or renaming a file changes its folder's stamp, so the stamps of the
folders listed and the files read tell whether an answer made from them still holds. The change
time and the inode are there because the modification time can be set (`tar` restores it, and a
file replaced by one of the same size and time would otherwise pass as unchanged): the change
time cannot be set, and a file moved into place has another inode.
"""

from __future__ import annotations

import os
from typing import Dict, Optional, Tuple

Stamp = Optional[Tuple[int, int, int, int]]  # (mtime_ns, size, ctime_ns, inode); None: the path does not exist


def stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    return of(status)


def of(status: os.stat_result) -> tuple[int, int, int, int]:
    return (status.st_mtime_ns, status.st_size, status.st_ctime_ns, status.st_ino)


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
        elif type(found) in (list, tuple) and len(found) == 4 and _ints(*found):
            stamps[path] = (found[0], found[1], found[2], found[3])
        else:
            return None
    return stamps


def _ints(a: object, b: object, c: object, d: object) -> bool:
    """Whether all four are ints (not bools): a warm run asks it of every folder walked."""
    return type(a) is int and type(b) is int and type(c) is int and type(d) is int
