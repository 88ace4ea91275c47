"""What a cached result rests on: the digest of each file a check read, of each folder's names
it listed, or the file's absence."""

from __future__ import annotations

import os

from .ownership import blake2b

_DEPENDENCY_BYTES = 64 << 20
ABSENT = "absent"  # the digest kept for a file a check looked for and did not find


def digest(data: bytes) -> str:
    return blake2b()(data, digest_size=32).hexdigest()


def file_digest(path: str) -> str | None:
    from ...files import Unreadable, read_regular

    try:
        return digest(read_regular(path, _DEPENDENCY_BYTES))
    except Unreadable:
        return None


def dependency_digest(path: str) -> str:
    """What a result rests on of `path`: a file's content; a folder's names, for a check that
    listed it (a Helm chart's templates); or its absence (a `Chart.yaml` or module not written yet),
    so that writing it later makes the result stale."""
    found = file_digest(path)
    if found is not None:
        return found
    try:
        names = sorted(os.listdir(path))
    except (OSError, ValueError):
        return ABSENT
    return digest("\0".join(names).encode("utf-8", "surrogateescape"))


def digests(paths: list[str]) -> dict[str, str]:
    """`dependency_digest` of each path a check read or listed, by absolute path."""
    return {os.path.abspath(path): dependency_digest(path) for path in paths}
