"""Reading what a checked tree holds: regular files only, never more than a limit, never waiting.

The tree may be hostile. A FIFO named `run.sh` would block a plain `open()` until someone writes
to it, and `ln -s /dev/zero z.sh` would be read until memory runs out. Every read of a file the
tree names goes through `read_regular`: the file is opened without blocking, it must be a
regular file once open (so a symlink is judged by what it points to, and the check cannot be
raced), and no more than `limit` bytes are read.
"""

from __future__ import annotations

import errno
import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)


class Unreadable(Exception):
    """A file that is not read, and why, in words that follow its path ("is a FIFO")."""

    def __init__(self, path: str, reason: str, missing: bool = False) -> None:
        super().__init__(f"{path} {reason}")
        self.path = path
        self.reason = reason
        self.missing = missing  # the path does not exist (or a folder on it does not)


class TooLarge(Unreadable):
    def __init__(self, path: str, size: int | None, limit: int) -> None:
        what = f"is {_mib(size)} MiB" if size is not None else "is larger than"
        super().__init__(path, f"{what}, above the {_mib(limit)} MiB limit" if size is not None else f"{what} the {_mib(limit)} MiB limit")
        self.size = size
        self.limit = limit


def _mib(size: int) -> str:
    value = size / (1024 * 1024)
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def not_regular(mode: int) -> str | None:
    """Why a file of this mode is not read, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISFIFO(mode):
        return "is a FIFO"
    if stat.S_ISCHR(mode):
        return "is a character device"
    if stat.S_ISBLK(mode):
        return "is a block device"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return "is not a regular file"


class Symlink(Unreadable):
    """`read_regular(..., follow=False)` met a symlink: the caller decides whether to follow it."""

    def __init__(self, path: str) -> None:
        super().__init__(path, "is a symlink")


def read_regular(path: str, limit: int, follow: bool = True) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them.

    Raises `TooLarge` for a larger file, `Symlink` for a symlink when not `follow`, and
    `Unreadable` for anything else that stops the read (not a regular file, a missing or
    unreadable path, a name no file can have), with the reason in plain words."""
    if "\0" in path:  # a NUL inside a name a launch writes (`--config "x\x00.yaml"`): os.open raises ValueError
        raise Unreadable(path, "cannot be read (a file name cannot hold a NUL character)", missing=True)
    try:
        descriptor = os.open(path, _OPEN_FLAGS if follow else _OPEN_FLAGS | _NOFOLLOW)
    except OSError as error:
        if not follow and error.errno == errno.ELOOP:
            raise Symlink(path) from None
        raise Unreadable(path, _reason(error), missing=error.errno in (errno.ENOENT, errno.ENOTDIR)) from None
    try:
        status = os.fstat(descriptor)
        reason = not_regular(status.st_mode)
        if reason is not None:
            raise Unreadable(path, reason)
        if status.st_size > limit:
            raise TooLarge(path, status.st_size, limit)
        return _read_at_most(descriptor, limit, path, status.st_size)
    except OSError as error:
        raise Unreadable(path, _reason(error)) from None
    finally:
        os.close(descriptor)


def display(path: str) -> str:
    """`path` relative to the working directory when below it, else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def inside(path: str, roots: tuple[str, ...], real_folders: dict[str, str] | None = None) -> bool:
    """Whether `path`, symlinks resolved, lies in one of `roots` (real paths). `real_folders`
    keeps the real path of each folder met, for the next file of the same folder (`real_path`)."""
    real = os.path.realpath(path) if real_folders is None else real_path(path, real_folders)
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def real_path(path: str, real_folders: dict[str, str]) -> str:
    """`os.path.realpath(path)`, the folder's part resolved once and kept in `real_folders` (by
    the folder as spelled, for one check): a file that is not a symlink itself costs one lstat.
    The value flow reads a hundred modules beside a file, and `realpath` stats every folder on
    the way (40 to 200 µs a file in vLLM's tree)."""
    folder, name = os.path.split(path)
    try:
        linked = name in ("", ".", "..") or stat.S_ISLNK(os.lstat(path).st_mode)
    except (OSError, ValueError):  # missing (`realpath` keeps what does not exist as spelled), a NUL
        linked = True
    if linked:
        return os.path.realpath(path)
    real = real_folders.get(folder)
    if real is None:
        real = real_folders[folder] = os.path.realpath(folder)
    return os.path.join(real, name)


def trusted_roots(paths: list[str]) -> tuple[str, ...]:
    """The folders a run over `paths` reads files in (real paths): the repository each path lies
    in (the nearest folder above it holding `.git`), else the folder named, or the folder of the
    file named. A launch may name files elsewhere (`--config /proc/self/environ`, a symlink to
    `~/.ssh`): those are not read, so a report shows nothing of them."""
    roots = []
    for path in paths:
        real = os.path.realpath(path)
        folder = real if os.path.isdir(real) else os.path.dirname(real)
        top = folder
        while not os.path.exists(os.path.join(top, ".git")) and os.path.dirname(top) != top:
            top = os.path.dirname(top)
        roots.append(top if os.path.exists(os.path.join(top, ".git")) else folder)
    return tuple(dict.fromkeys(roots))


def read_head(path: str, size: int) -> bytes:
    """The first `size` bytes of a regular file; b"" for anything else."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return b""
        return os.read(descriptor, size)
    except OSError:
        return b""
    finally:
        os.close(descriptor)


def read_stream(stream, limit: int, name: str = "stdin") -> bytes:
    """At most `limit` bytes of a binary stream (stdin); `TooLarge` when there are more."""
    chunks, got = [], 0
    while got <= limit:
        chunk = stream.read(min(1 << 20, limit + 1 - got))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        got += len(chunk)
    raise TooLarge(name, None, limit)


def _read_at_most(descriptor: int, limit: int, path: str, expected: int) -> bytes:
    """Read to the end, or past `limit` (a file that grew since fstat, or a /proc file that
    reports size 0): one read for the usual file whose size fstat told."""
    data = os.read(descriptor, expected + 1 if expected < limit else limit + 1)
    if len(data) <= expected:
        return data
    chunks, got = [data], len(data)
    while got <= limit and (chunk := os.read(descriptor, min(1 << 20, limit + 1 - got))):
        chunks.append(chunk)
        got += len(chunk)
    if got > limit:
        raise TooLarge(path, got, limit)
    return b"".join(chunks)


def _reason(error: OSError) -> str:
    words = (error.strerror or str(error)).lower()
    return f"cannot be read ({words})"


# Byte-order marks of the encodings other than UTF-8 that YAML readers (PyYAML, kubectl) accept.
# UTF-32's come first: UTF-32-LE's begins with UTF-16-LE's.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def wide_encoding(data: bytes) -> tuple[str, int] | None:
    """The UTF-16 or UTF-32 encoding a byte-order mark announces, and the mark's length."""
    if data[:1] not in (b"\xff", b"\xfe", b"\x00"):
        return None
    for mark, encoding in _WIDE_BOMS:
        if data.startswith(mark):
            return encoding, len(mark)
    return None


def decode_text(data: bytes) -> str:
    """A text file in UTF-8 (with or without a byte-order mark), or in UTF-16 or UTF-32 with
    one; UnicodeDecodeError otherwise."""
    wide = wide_encoding(data)
    if wide is not None:
        return data[wide[1] :].decode(wide[0])
    return data.decode("utf-8-sig")


def as_utf8(data: bytes) -> bytes:
    """`data` in UTF-8 when a UTF-16 or UTF-32 byte-order mark opens it (so the byte-level
    prefilter sees its words), else unchanged; undecodable units become U+FFFD."""
    wide = wide_encoding(data)
    if wide is None:
        return data
    encoding, length = wide
    return data[length:].decode(encoding, "replace").encode("utf-8")


def trusted(path: str, folder: bool) -> bool:
    """Whether only this user or root could have made `path` what it is: owned by one of
    them, and, for a folder, not writable by others unless sticky."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    if status.st_uid not in (os.geteuid(), 0):
        return False
    return not folder or not status.st_mode & stat.S_IWOTH or bool(status.st_mode & stat.S_ISVTX)


def in_workflows(path: str) -> bool:
    """Whether `path` is a GitHub Actions workflow (`.github/workflows/*.yml`): its `run:` steps
    run in the repository's checkout, the folder that holds `.github`."""
    parts = os.path.normpath(path).split(os.sep)
    return len(parts) >= 3 and parts[-3:-1] == [".github", "workflows"]
