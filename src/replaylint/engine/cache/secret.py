"""The key that authenticates the result cache, kept outside every checked tree.

A tree can ship a `.replaylint_cache` whose stores say its launch files are clean (a force-added
folder, a hostile pull request). So every store carries a keyed BLAKE2b of its content, and the
key lives in the user's cache folder: `$XDG_CACHE_HOME/replaylint/cache-key`, else
`~/.cache/replaylint/cache-key`. The folder is this user's, 0700, and not writable by others;
the key file is 32 random bytes, 0600, made as a temporary file and linked into place (two runs
at once agree on one key), and never opened through a symlink. A key file that is not private
(a link, another owner, readable by others, the wrong size) is replaced by a new one.
"""

from __future__ import annotations

import os

from .folder import Unusable, open_folder, read, remove, write

KEY_BYTES = 32
KEY_NAME = "cache-key"


class NoKey(Exception):
    """No key can be kept: the result cache is not used. The message says why."""


def key_folder() -> str | None:
    """Where the key lives, or None when there is no home to keep it in."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG specification: a relative path is ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "replaylint")


def load() -> bytes:
    """This user's key, made on first use. Raises `NoKey`."""
    place = key_folder()
    if place is None:
        raise NoKey("there is no home folder to keep its key in")
    try:
        descriptor = open_folder(place, create=True, mode=0o700)
    except Unusable as error:
        raise NoKey(f"its key cannot be kept in {place}: it {error}") from None
    assert descriptor is not None
    try:
        status = os.fstat(descriptor)
        if status.st_uid != os.geteuid() or status.st_mode & 0o022:
            raise NoKey(f"{place} is not this user's alone (its owner or permissions)")
        return _read(descriptor) or _make(descriptor, place)
    finally:
        os.close(descriptor)


def _read(descriptor: int) -> bytes | None:
    """The key file's bytes when it is a private key file of this user."""
    found = read(descriptor, KEY_NAME, KEY_BYTES)
    if found is None:
        return None
    data, status = found
    private = status.st_uid == os.geteuid() and not status.st_mode & 0o077
    return data if private and len(data) == KEY_BYTES else None


def _make(descriptor: int, place: str) -> bytes:
    """A new key, linked into place; the key another run linked first, or a bad key file
    replaced."""
    try:
        temporary = write(descriptor, KEY_NAME, os.urandom(KEY_BYTES), mode=0o600)
        try:
            os.link(temporary, KEY_NAME, src_dir_fd=descriptor, dst_dir_fd=descriptor, follow_symlinks=False)
        except FileExistsError:
            if _read(descriptor) is None:  # not another run's new key: a bad one
                os.replace(temporary, KEY_NAME, src_dir_fd=descriptor, dst_dir_fd=descriptor)
        finally:
            remove(descriptor, temporary)
    except OSError as error:
        raise NoKey(f"its key cannot be written in {place} ({(error.strerror or str(error)).lower()})") from None
    key = _read(descriptor)
    if key is None:
        raise NoKey(f"its key in {place} cannot be read back")
    return key
