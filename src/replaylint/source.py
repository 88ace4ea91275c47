"""What a frontend is given and what it may raise: the file (`SourceFile`), what it may ask of
the run (`ExtractContext`, with the file's `Budget`), and the ways it stops (`ParseError`,
`NotAnalysed` and its `OverBudget`). Every layer that reads or writes a file's text takes these
from here."""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from dataclasses import field
from typing import TYPE_CHECKING, Callable, Iterator

from .records import record

if TYPE_CHECKING:
    from .model import LineIndex
    from .served import ServerClient


class ParseError(Exception):
    """The file is not valid in its language; `line`/`col` are 1-based when known."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


class NotAnalysed(ParseError):
    """The file cannot be analysed completely (RPL902, not RPL900: the file may be valid):
    `message` says why, `offset` is where in the file, when known. Its analysis stops: the file
    gets only this finding. A ParseError to whoever only asks whether a file reads (the check
    after `--fix`)."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


class OverBudget(NotAnalysed):
    """The file needs more than its `Budget`. `steady`: the work bound was reached, which a
    file's text decides; a deadline or the memory bound depend on the machine's load too."""

    def __init__(self, message: str, offset: int | None = None, steady: bool = False) -> None:
        super().__init__(message, offset)
        self.steady = steady


@record(unsafe_hash=True)
class Unread:
    """A construct the frontend did not enter (nested beyond a limit): `offset` in the file."""

    message: str
    offset: int


# What one file may cost. Work units are about a microsecond each (a shell statement, a word
# part, a Dockerfile line, a YAML node, a Python character libcst will read): the bound is the
# same on every machine, so a file is reported or not whatever the load. The deadline and the
# memory bound are backstops for work nobody charged.
WORK_LIMIT = 4_000_000
SECONDS_LIMIT = 30.0
MEMORY_LIMIT = 1 << 30  # bytes the process may grow while it reads one file
_PROBE_EVERY = 20_000  # units between two looks at the clock and the resident set


@record
class Budget:
    """The cost one file may have, spent cooperatively: the frontends' hot loops `charge` it,
    and a charge past a bound raises `OverBudget`. Safe off the main thread (no signals): each
    check has its own budget. Memory is the growth of the resident set, read where it is cheap
    (Linux's /proc/self/statm); elsewhere the work bound stands for it."""

    work: int = WORK_LIMIT
    seconds: float = SECONDS_LIMIT
    memory: int = MEMORY_LIMIT
    spent: int = 0
    started: float = field(default_factory=time.monotonic)
    resident: int | None = field(default_factory=lambda: _resident())  # at the start: growth, parsing included, is counted from there
    where: int | None = None  # the last offset charged: where the work ran out
    _probe: int = _PROBE_EVERY

    def charge(self, units: int = 1, offset: int | None = None) -> None:
        self.spent += units
        if offset is not None:
            self.where = offset
        if self.spent >= self._probe:
            self._check(self.where)

    def _check(self, offset: int | None) -> None:
        self._probe = self.spent + _PROBE_EVERY
        if self.spent > self.work:
            raise OverBudget(f"it needs more work than the {self.work:,} units one file may take", offset, steady=True)
        elapsed = time.monotonic() - self.started
        if elapsed > self.seconds:
            raise OverBudget(f"it takes longer than the {self.seconds:g} s one file may take", offset)
        now = _resident()
        if self.resident is None:
            self.resident = now
        elif now is not None and now - self.resident > self.memory:
            raise OverBudget(f"it needs more than the {self.memory // (1 << 20)} MiB of memory one file may take", offset)

    def left(self) -> tuple[int, float]:
        """What is left of the memory bound (all of it where the resident set is not known) and
        of the deadline, in bytes and seconds: for work done elsewhere (`grammar.trial`)."""
        seconds = max(0.0, self.seconds - (time.monotonic() - self.started))
        now = _resident()
        if now is None or self.resident is None:
            return self.memory, seconds
        return max(0, self.memory - (now - self.resident)), seconds


def _resident() -> int | None:
    """The resident set of this process in bytes (Linux only; None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if sys.platform.startswith("linux") else 4096


def address_space() -> int | None:
    """The address space (virtual size) of this process in bytes (Linux only; None elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[0]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def bound_address_space(growth: int) -> tuple[int, int] | None:
    """Lets this process's address space grow by `growth` bytes at most from now (RLIMIT_AS; a
    limit already lower stays): an allocation past it fails, and Python raises MemoryError
    where the machine would swap. Returns the limits to restore, None when none was set (no
    such limit on this system, or no lower one)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = address_space()
    if size is None:
        return None
    limit = min([size + growth, *(value for value in (soft, hard) if value != resource.RLIM_INFINITY)])
    if limit == soft:
        return None
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        return None
    return soft, hard


def address_room() -> int | None:
    """How much this process's address space may still grow under RLIMIT_AS; None: no bound
    (or none this system tells)."""
    try:
        import resource
    except ImportError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    size = address_space()
    return None if soft == resource.RLIM_INFINITY or size is None else max(0, soft - size)


@contextmanager
def memory_bound(growth: int) -> Iterator[None]:
    """`bound_address_space` inside the block: the backstop of a `Budget`'s memory bound for
    work that charges nothing while it runs (libyaml's compose). Native code that crashes
    instead of failing (tree-sitter) must be bounded before it runs (`grammar.trial`)."""
    previous = bound_address_space(growth)
    try:
        yield
    finally:
        if previous is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, previous)


@record
class SourceFile:
    path: str
    text: str
    index: LineIndex = field(init=False)

    def __post_init__(self) -> None:
        from .model import LineIndex  # imported when a file is read: a clean run never needs it

        self.index = LineIndex(self.path, self.text)


def names_in(folder: str) -> list[str]:
    """The names of a folder's entries, sorted; none when it cannot be listed."""
    try:
        return sorted(os.listdir(folder))
    except (OSError, ValueError):
        return []


@record
class ExtractContext:
    """What a frontend may ask of the run: other files (a `--config` YAML), the project root;
    and what it must tell: the work it does (`budget`) and the constructs it did not enter
    (`unread`), which become RPL902 findings."""

    read_text: Callable[[str], str | None] = lambda path: None
    list_folder: Callable[[str], list[str]] = names_in  # a check's result rests on the names it lists too
    root: str = "."
    budget: Budget = field(default_factory=Budget)
    unread: list[Unread] = field(default_factory=list)
    forwarded_arguments: str = "as-written"  # a script's `"$@"`: judged as written, or "open" (see `config`)
    clients: list[ServerClient] = field(default_factory=list)  # HTTP clients no server of the file serves (`served`)
    reads_masks: bool = False  # the file names the masks' route where no client was read
    clients_unread: bool = False  # it starts no server and may hold clients: `cross_file` reads them if the tree starts a replay server
    near: dict = field(default_factory=dict, repr=False)  # the value flow's walks and reads around a module, for this check

    def not_entered(self, message: str, offset: int) -> None:
        """A construct at `offset` the frontend did not read (`message` says which limit). Only
        the first for each limit is kept: the statements of a region too deep are all too deep."""
        if not any(entry.message == message for entry in self.unread):
            self.unread.append(Unread(message, offset))
