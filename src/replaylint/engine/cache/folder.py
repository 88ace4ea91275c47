"""A folder replaylint keeps files in (the result cache's, the key's), never through a symlink.

The folder is opened without following a symlink, and every file in it is opened relative to
that descriptor without following one either: a `.replaylint_cache` that a tree makes a link
to `~/.ssh`, or a store inside it that links to `/dev/zero`, is neither read nor written. A
file is written as a new temporary file in the folder, then moved over its name: a reader
never sees half of it, and a link in its place is replaced, not followed.
"""

from __future__ import annotations

import errno
import os
import stat

_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
SUPPORTED = hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and os.open in os.supports_dir_fd
TEMPORARY_PREFIX = ".tmp-"
CACHE_DIR = ".replaylint_cache"  # the result cache's folder, in the project's root


class Unusable(Exception):
    """A folder that is not used, and why, in words that follow its path ("is a symbolic link")."""


def open_folder(path: str, create: bool = False, mode: int = 0o777) -> int | None:
    """A descriptor of the folder `path` (the caller closes it), or None when it does not exist
    and `create` is false. Raises `Unusable` when `path` is a symlink, not a folder, or cannot
    be opened or made."""
    if not SUPPORTED:
        raise Unusable("cannot be opened without following symbolic links on this system")
    path = path.rstrip(os.sep) or os.sep  # `link/` would follow the link
    try:
        return os.open(path, _FOLDER_FLAGS)
    except FileNotFoundError:
        return _make(path, mode) if create else None
    except OSError as error:
        raise Unusable(_why(path, error)) from None


def _make(path: str, mode: int) -> int:
    try:
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        os.mkdir(path, mode)
    except FileExistsError:
        pass  # made meanwhile, or a dangling symlink: opening it tells
    except OSError as error:
        raise Unusable(f"cannot be made ({_words(error)})") from None
    try:
        return os.open(path, _FOLDER_FLAGS)
    except OSError as error:
        raise Unusable(_why(path, error)) from None


def _why(path: str, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "is a symbolic link"
    if error.errno == errno.ENOTDIR:
        return "is a symbolic link" if os.path.islink(path) else "is not a folder"
    return f"cannot be opened ({_words(error)})"


def _words(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def read(folder: int, name: str, limit: int) -> tuple[bytes, os.stat_result] | None:
    """The bytes of the regular file `name` in `folder` and its status; None when it is absent,
    a symlink, not a regular file, larger than `limit` or unreadable."""
    try:
        descriptor = os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        chunks, got, wanted = [], 0, status.st_size + 1  # one read, then the end
        while got <= limit:
            chunk = os.read(descriptor, min(wanted, limit + 1 - got))
            if not chunk:
                return b"".join(chunks), status
            chunks.append(chunk)
            got, wanted = got + len(chunk), 1 << 20
        return None
    except OSError:
        return None
    finally:
        os.close(descriptor)


def write(folder: int, name: str, data: bytes, mode: int = 0o666) -> str:
    """Write `data` to a new temporary file in `folder` (permissions `mode`, less the umask);
    its name, for `replace` or `link`. Raises OSError."""
    while True:
        temporary = f"{TEMPORARY_PREFIX}{name}-{os.urandom(6).hex()}"
        try:
            descriptor = os.open(temporary, _CREATE_FLAGS, mode, dir_fd=folder)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
    except OSError:
        remove(folder, temporary)
        raise
    return temporary


def replace(folder: int, name: str, data: bytes, mode: int = 0o666) -> None:
    """Give `name` in `folder` the content `data` at once (whatever was there, a symlink too, is
    replaced). Raises OSError."""
    temporary = write(folder, name, data, mode)
    try:
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        remove(folder, temporary)
        raise


def is_regular(folder: int, name: str) -> bool:
    """Whether `name` in `folder` is a regular file (not a symlink to one)."""
    try:
        return stat.S_ISREG(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def remove(folder: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:
        pass
