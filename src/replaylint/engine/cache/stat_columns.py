"""File stats as the clean store keeps them: (size, mtime_ns, ctime_ns, inode) packed as columns of
64-bit numbers spelled in hex, little-endian on every machine."""

from __future__ import annotations

import os
import sys
from array import array
from itertools import chain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def stat_of(path: str) -> tuple[int, int, int, int] | None:
    """(size, mtime_ns, ctime_ns, inode) of `path` now; None when it cannot be stated."""
    try:
        return numbers_in(os.stat(path))
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None


def numbers_in(status: os.stat_result) -> tuple[int, int, int, int]:
    """The (size, mtime_ns, ctime_ns, inode) of a stat."""
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


def packed(data: dict, prefix: str) -> dict:
    """The `full_stat` of each path, as a column of paths and two of packed numbers: JSON reads
    a string of hex digits in a fifth of the time of the numbers it spells, and a warm run reads
    one per file of the tree. A stat that does not fit is left out (read again). `prefix`: the
    working folder the paths are relative to."""
    kept = {path: full for path, full in data.items() if fits(full)}
    numbers, inodes = columns(list(kept.values()))
    return {"folder": prefix, "paths": list(kept), "stats": hex_of(numbers), "inodes": hex_of(inodes)}


def columns(stats: list[tuple]) -> tuple[array, array]:
    """Stats (size, mtime, ctime) packed, and their inodes (OverflowError: one does not pack)."""
    return array("q", chain.from_iterable(stat[:3] for stat in stats)), array("Q", [stat[3] for stat in stats])


def unpacked(value: object, prefix: str, key: Callable[[str], str]) -> dict | None:
    """What `packed` made, its paths made `key`s when it was stored in another working folder
    than `prefix`; None for any other value."""
    if type(value) is not dict or value.keys() != {"folder", "paths", "stats", "inodes"} or type(value["folder"]) is not str:
        return None
    stored_in, paths = value["folder"], value["paths"]
    if type(paths) is not list or not set(map(type, paths)) <= {str}:
        return None
    numbers, inodes = numbers_of("q", value["stats"]), numbers_of("Q", value["inodes"])
    if numbers is None or inodes is None or len(numbers) != 3 * len(paths) or len(inodes) != len(paths):
        return None
    if stored_in != prefix:  # stored by a run in another working folder
        paths = [key(path if path[:1] == "/" else stored_in + path) for path in paths]
    each = iter(numbers)
    return dict(zip(paths, zip(each, each, each, inodes)))
