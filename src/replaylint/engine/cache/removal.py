"""`replaylint clean`: remove the cache folder, and only what replaylint wrote there."""

from __future__ import annotations

import os

from .folder import CACHE_DIR, TEMPORARY_PREFIX, Unusable, open_folder
from .ownership import MARKER, SERVING, STORE_PREFIXES


class NotRemoved(Exception):
    """`remove_cache` refused, and why."""


def _written_by_replaylint(name: str) -> bool:
    """The names replaylint gives the files of its cache folder (older releases' included)."""
    stores = name.startswith(STORE_PREFIXES) and name.endswith((".json", ".pickle"))
    return stores or name in (".gitignore", MARKER, SERVING) or name.startswith((TEMPORARY_PREFIX, ".store-"))


def remove_cache(directory: str | None) -> str | None:
    """Remove the cache folder and say so; None when there is none. A symlink in its place is
    removed itself, never what it points to. Raises `NotRemoved` when the path is not a folder
    or holds anything replaylint did not write there (nothing is removed then)."""
    import stat

    target = (directory or CACHE_DIR).rstrip(os.sep) or os.sep
    try:
        if stat.S_ISLNK(os.lstat(target).st_mode):
            os.unlink(target)
            return f"Removed the symbolic link {target} (what it points to is left as it was)"
        descriptor = open_folder(target)
    except FileNotFoundError:
        return None
    except Unusable as error:
        raise NotRemoved(f"{target} {error}: nothing removed") from None
    except OSError as error:
        raise NotRemoved(f"{target} cannot be removed ({(error.strerror or str(error)).lower()})") from None
    if descriptor is None:
        return None
    try:
        names = os.listdir(descriptor)
        foreign = [
            name
            for name in names
            if not _written_by_replaylint(name) or stat.S_ISDIR(os.stat(name, dir_fd=descriptor, follow_symlinks=False).st_mode)
        ]
        if foreign:
            raise NotRemoved(f"{target} holds files replaylint did not write ({', '.join(sorted(foreign)[:3])}): nothing removed")
        for name in names:
            os.unlink(name, dir_fd=descriptor)
        os.rmdir(target)
    except OSError as error:
        raise NotRemoved(f"{target} cannot be removed ({(error.strerror or str(error)).lower()})") from None
    finally:
        os.close(descriptor)
    return f"Removed {target}"
