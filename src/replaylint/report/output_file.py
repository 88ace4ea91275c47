"""`-o FILE`: the report written where the user said, never where a checked tree points it.

A checked tree may commit a symlink at the report's name (`replaylint.sarif -> ~/.bashrc`) or a
symlinked folder on its way (`reports -> /etc`). So the path is walked one folder at a time:
a symlink that lies inside a tree (the repositories the run reads, and the working folder's) is
refused, one outside every tree is followed as the user wrote it (`/tmp` on macOS); a missing
folder is created, as ruff creates it. Inside a tree the report goes to a temporary file renamed
over the name, which replaces a symlink there instead of writing through it; outside every tree
the name is opened as written, so `-o /dev/stdout` and `-o /dev/full` mean what they say.
"""

from __future__ import annotations

import os
import stat
import tempfile


class ReportNotWritten(Exception):
    """Why the report cannot be written, in words that follow its path."""


def report_folder(path: str, trees: tuple[str, ...], create: bool = False) -> str:
    """The real path of the folder `path` goes in, each folder on the way checked (and created
    when `create`); `ReportNotWritten` for a symlinked folder inside `trees`, a file where a
    folder should be, a name that is a folder, or one inside a tree that is not a regular file
    or a symlink (a FIFO would block the write)."""
    name = os.path.basename(path)
    if not name or name in (".", ".."):
        raise ReportNotWritten("is a directory; -o names the report's file")
    current = os.sep if os.path.isabs(path) else os.getcwd()
    for part in os.path.dirname(path).split(os.sep):
        current = _step(current, part, trees, create)
    final = os.path.join(current, name)
    if os.path.isdir(final) and not os.path.islink(final):
        raise ReportNotWritten("is a directory; -o names the report's file")
    if _inside(final, trees) and os.path.lexists(final) and not (os.path.islink(final) or os.path.isfile(final)):
        raise ReportNotWritten("is not a regular file")
    return current


def _step(current: str, part: str, trees: tuple[str, ...], create: bool) -> str:
    """The real folder `part` names in the real folder `current`."""
    if part in ("", "."):
        return current
    if part == "..":
        return os.path.dirname(current)
    candidate = os.path.join(current, part)
    try:
        status = os.lstat(candidate)
    except FileNotFoundError:
        if not create:
            return candidate  # what is below it is missing too: created when the report is written
        os.mkdir(candidate)
        return candidate
    if stat.S_ISLNK(status.st_mode):
        if _inside(candidate, trees):
            raise ReportNotWritten(f"goes through {candidate}, a symlink inside the checked tree")
        return os.path.realpath(candidate)
    if not stat.S_ISDIR(status.st_mode):
        raise ReportNotWritten(f"goes through {candidate}, which is not a folder")
    return candidate


def _inside(path: str, trees: tuple[str, ...]) -> bool:
    return any(path == tree or path.startswith(tree.rstrip(os.sep) + os.sep) for tree in trees)


def write_report(path: str, text: str, trees: tuple[str, ...]) -> None:
    """Write `text` to `path`: inside a tree by rename (a symlink at `path` is replaced, never
    followed), keeping the mode of a regular file it replaces; outside, as `open()` writes."""
    folder = report_folder(path, trees, create=True)
    target = os.path.join(folder, os.path.basename(path))
    if not _inside(target, trees):
        with open(target, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        return
    try:
        handle, temporary = tempfile.mkstemp(prefix=".replaylint-report-", dir=folder)
    except PermissionError:  # a folder this user may not add to, with a report file it may write
        if not os.path.lexists(target):
            raise
        _write_in_place(target, text)
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            os.fchmod(stream.fileno(), _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


_IN_PLACE = os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _write_in_place(target: str, text: str) -> None:
    """Write over the regular file `target`, never through a symlink (O_NOFOLLOW)."""
    try:
        descriptor = os.open(target, _IN_PLACE)
    except OSError:
        if os.path.islink(target):
            raise ReportNotWritten("is a symlink in a folder this user cannot write") from None
        raise
    with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ReportNotWritten("is not a regular file")
        stream.write(text)


def _mode_for(target: str) -> int:
    """The mode of the regular file being replaced, else what `open()` would give a new one."""
    try:
        status = os.lstat(target)
    except FileNotFoundError:
        status = None
    if status is not None and stat.S_ISREG(status.st_mode):
        return stat.S_IMODE(status.st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
