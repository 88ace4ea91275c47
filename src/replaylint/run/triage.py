"""One file's way through a run before and after its check: its name and stat (`by_stat`),
the prefilter and the result cache (`triage`), the check itself within the memory the process may
take for one file (`check_file`: RPL902 when it runs out), and what the cache keeps of the result
(`store`). Shared by the scheduler and the forked reader of a large tree."""

from __future__ import annotations

import os
from contextlib import nullcontext

from .. import frontends
from ..engine import cache
from ..engine.cache.stat_columns import stat_of
from ..engine.checker import Checker, FileResult
from ..source import MEMORY_LIMIT, memory_bound
from ..workspace.discovery import read_head

# The hard bound of one file's check over the budget's own (`Budget.memory`, checked as the work
# goes): room for what one step allocates before the budget's next look.
_MEMORY_SLACK = 64 << 20


def check_file(checker: Checker, path: str, data: bytes | None = None) -> FileResult:
    """`checker.check_file` (`check_data` of `data` read already) within the memory this process
    may take for one file, RPL902 when it runs out (MemoryError); a Python file is bounded by
    work before libcst runs, which ends the process when an allocation fails."""
    head = data[:256] if data is not None else read_head(path) if "." not in os.path.basename(path) else None
    memory = int(checker.budget.get("memory", MEMORY_LIMIT))
    bounded = memory_bound(memory + _MEMORY_SLACK) if frontends.kind_for(path, head) != "python" else nullcontext()
    try:
        with bounded:
            result = checker.check_file(path) if data is None else checker.check_data(path, data)
    except MemoryError:
        result = FileResult(path, internal_error="MemoryError")
    if result.internal_error is None or not result.internal_error.startswith("MemoryError"):
        return result
    from ..engine.own_findings import not_analysed  # the engine's RPL902 (api.check_text tells a MemoryError as an internal error)

    finding = not_analysed(path, f"it needs more than the {memory >> 20} MiB of memory one file may take")
    return checker._finish(FileResult(path, [finding], kind=result.kind, load_dependent=True), None)


class Triaged:
    """A file after the prefilter and the cache: its result when that decided it, else its bytes;
    and its stat when the prefilter turned it away (to remember it by). The plain result of a
    file the prefilter turned away (most files) is made only when asked for: a reader sends its
    kind alone. (A plain class: a tree has thousands.)"""

    __slots__ = ("path", "decided", "data", "clean_stat", "kind", "turned_away")

    def __init__(
        self,
        path: str,
        decided: FileResult | None = None,
        data: bytes = b"",
        clean_stat: tuple[int, int] | None = None,
        kind: str | None = None,
        turned_away: bool = False,
    ) -> None:
        self.path = path
        self.decided = decided  # the result the name, the read or the cache decided
        self.data = data
        self.clean_stat = clean_stat
        self.kind = kind
        self.turned_away = turned_away  # by the prefilter: its result says nothing but its kind

    @property
    def result(self) -> FileResult | None:
        return FileResult(self.path, kind=self.kind) if self.turned_away else self.decided


def by_stat(path: str, result_cache: cache.ResultCache | None, stats: bool) -> tuple[FileResult | None, str | None, tuple[int, int] | None]:
    """What a file's name and stat decide: not a file replaylint reads, or one the cache
    remembers as turned away, unchanged since. Also its kind and stat. A file without a suffix
    and without a shebang is turned away by its stat too: its head is not read again."""
    extensionless = "." not in path[path.rfind(os.sep) + 1 :]
    if not extensionless and (kind := frontends.kind_for(path)) is None:
        return FileResult(path), None, None
    stat = stat_of(path) if stats else None  # (size, mtime, ctime, inode), taken before the file is read
    if extensionless and (kind := frontends.kind_for(path, read_head(path))) is None:
        return FileResult(path), None, stat
    if stat is not None and result_cache is not None and result_cache.is_clean(path, stat):
        return FileResult(path, kind=kind), kind, stat
    return None, kind, stat


def triage(checker: Checker, path: str, result_cache: cache.ResultCache | None, stats: bool) -> Triaged:
    decided, kind, stat = by_stat(path, result_cache, stats)
    if decided is not None:
        return Triaged(path, decided, clean_stat=stat)
    assert kind is not None
    data = checker.read(path)
    if isinstance(data, FileResult):
        return Triaged(path, data)
    if not frontends.relevant(kind, data):
        return Triaged(path, clean_stat=stat, kind=kind, turned_away=True)
    entry = result_cache.lookup(path, checker.cache_key(path, data), stat) if result_cache is not None else None
    return Triaged(path, cached_result(path, entry)) if entry is not None else Triaged(path, data=data, kind=kind)


def cached_result(path: str, entry: cache.Entry) -> FileResult:
    return FileResult(path, list(entry.findings), list(entry.notes), kind=entry.kind, parsed=True, served=entry.served)


def read_and_check(
    checker: Checker, result_cache: cache.ResultCache | None, path: str, stats: bool
) -> tuple[FileResult, tuple[int, int] | None]:
    """A file's result, from the prefilter, the cache or a parse; and its stat when clean."""
    triaged = triage(checker, path, result_cache, stats)
    return (triaged.result or check_file(checker, path, triaged.data)), triaged.clean_stat


def store(result_cache: cache.ResultCache | None, result: FileResult, clean_stat: tuple[int, int] | None) -> None:
    if result_cache is None:
        return
    if clean_stat is not None:
        result_cache.mark_clean(result.path, clean_stat)
    elif result.digest is not None and not (result.internal_error or result.error or result.load_dependent):
        result_cache.store(result.path, result.digest, result.findings, result.notes, result.kind, result.dependencies, result.served)
