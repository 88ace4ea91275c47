"""File stats as the clean store keeps them: (size, mtime_ns, ctime_ns, inode) packed as columns of
64-bit numbers spelled in hex, little-endian on every machine."""

from __future__ import annotations

import os
import sys
from array import array


def stat_of(path: str) -> tuple[int, int, int, int] | None:
    """(size, mtime_ns, ctime_ns, inode) of `path` now; None when it cannot be stated."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


def full_stat(path: str, stat: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """(size, mtime_ns, ctime_ns, inode) of `path`: `stat` when it has them all, else the file's
    own when its (size, mtime_ns) are still `stat`'s (None when not: it changed meanwhile)."""
    if len(stat) == 4:
        return (stat[0], stat[1], stat[2], stat[3])
    full = stat_of(path)
    return full if full is not None and full[:2] == tuple(stat[:2]) else None


_INT64, _UINT64 = range(-(1 << 63), 1 << 63), range(1 << 64)


def fits(full: tuple[int, int, int, int]) -> bool:
    """Whether a `full_stat` packs: a size and times in 64 bits, an inode in 64 unsigned."""
    return full[0] in _INT64 and full[1] in _INT64 and full[2] in _INT64 and full[3] in _UINT64


def hex_of(numbers: array) -> str:
    """`numbers` as the hex of their little-endian bytes (the same store on any machine)."""
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers.tobytes().hex()


def numbers_of(typecode: str, value: object) -> array | None:
    """The numbers `hex_of` spelled, or None when `value` is not such a spelling."""
    if type(value) is not str:
        return None
    try:
        numbers = array(typecode, bytes.fromhex(value))
    except ValueError:  # not hex, or not whole numbers
        return None
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers
