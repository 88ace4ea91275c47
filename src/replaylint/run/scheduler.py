"""Whole runs: every file of the paths, checked through the result cache and, for larger
trees, by worker processes (a large tree is read by this process and a forked reader
together: `forked_reader`);
results come back in the order of the files. Each file is checked within the memory its
process may take for it (`source.memory_bound`): one that runs out is RPL902, and the run
goes on.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass

from .. import frontends
from ..engine import cache
from ..engine.cache.stat_columns import stat_of
from ..engine.checker import Checker, FileResult
from ..engine.config import Config
from ..engine.hierarchy import ConfigPerFile
from ..engine.versions import ProjectPins
from ..source import MEMORY_LIMIT, memory_bound
from ..workspace.discovery import read_head
from .cross_file import tie_clients

PARALLEL_MIN_FILES = 24  # files to parse; below this, starting workers costs more than it saves
LARGE_TREE_FILES = 2000  # a tree this large is read by this process and a worker together
# The hard bound of one file's check over the budget's own (`Budget.memory`, checked as the work
# goes): room for what one step allocates before the budget's next look.
_MEMORY_SLACK = 64 << 20
_worker_checker: Checker | None = None


def _start_worker(config: Config, pins: ProjectPins | None, cached: bool, roots: tuple[str, ...] | None, budget: dict, settings) -> None:
    global _worker_checker
    _worker_checker = Checker(config, pins, cached, roots, settings)
    _worker_checker.budget = budget


def _check_in_worker(path: str) -> FileResult:
    return _check_file(_worker_checker, path)  # type: ignore[arg-type]  (`_start_worker` set it)


def _check_file(checker: Checker, path: str, data: bytes | None = None) -> FileResult:
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


@dataclass
class _Triaged:
    """A file after the prefilter and the cache: its result when that decided it, else its bytes;
    and its stat when the prefilter turned it away (to remember it by)."""

    result: FileResult | None = None
    data: bytes = b""
    clean_stat: tuple[int, int] | None = None
    kind: str | None = None


def _by_stat(
    path: str, result_cache: cache.ResultCache | None, stats: bool
) -> tuple[FileResult | None, str | None, tuple[int, int] | None]:
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


def _triage(checker: Checker, path: str, result_cache: cache.ResultCache | None, stats: bool) -> _Triaged:
    decided, kind, stat = _by_stat(path, result_cache, stats)
    if decided is not None:
        return _Triaged(decided, clean_stat=stat)
    assert kind is not None
    data = checker.read(path)
    if isinstance(data, FileResult):
        return _Triaged(data)
    if not frontends.relevant(kind, data):
        return _Triaged(FileResult(path, kind=kind), clean_stat=stat)
    entry = result_cache.lookup(path, checker.cache_key(path, data), stat) if result_cache is not None else None
    return _Triaged(_cached(path, entry)) if entry is not None else _Triaged(data=data, kind=kind)


def _cached(path: str, entry: cache.Entry) -> FileResult:
    return FileResult(path, list(entry.findings), list(entry.notes), kind=entry.kind, parsed=True, served=entry.served)


def _read(checker: Checker, result_cache: cache.ResultCache | None, path: str, stats: bool) -> tuple[FileResult, tuple[int, int] | None]:
    """A file's result, from the prefilter, the cache or a parse; and its stat when clean."""
    triaged = _triage(checker, path, result_cache, stats)
    return (triaged.result or _check_file(checker, path, triaged.data)), triaged.clean_stat


def _pool(checker: Checker, workers: int):
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        workers,
        initializer=_start_worker,
        initargs=(checker.config, checker.project_pins, checker.cached, checker.roots, checker.budget, checker.settings),
    )


def _store(result_cache: cache.ResultCache | None, result: FileResult, clean_stat: tuple[int, int] | None) -> None:
    if result_cache is None:
        return
    if clean_stat is not None:
        result_cache.mark_clean(result.path, clean_stat)
    elif result.digest is not None and not (result.internal_error or result.error or result.load_dependent):
        result_cache.store(result.path, result.digest, result.findings, result.notes, result.kind, result.dependencies, result.served)


def run_checks(
    paths: list[str], config: Config, checker: Checker, result_cache: cache.ResultCache | None = None, workers: int | None = None
) -> list[FileResult]:
    """Check every discovered file. With a cache that remembers files, their stats decide most of
    them first, in this process. A large tree left to read, on two cores, is read by a worker and
    this process together (`_run_pipelined`); otherwise this process runs the prefilter and the
    cache over the files left, and parses what passes here or, when many, in worker processes."""
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    warm = result_cache is not None and result_cache.remembers_files()
    # A folder may be a large tree: a cold run starts the reading worker while the tree is walked.
    reader = None
    if count == 2 and not warm and any(os.path.isdir(path) for path in paths):
        reader = _start_reader(checker, result_cache)
    snapshots = result_cache.snapshots if result_cache is not None else None
    unlisted: list[tuple[str, str]] = []
    files = (checker.settings or ConfigPerFile(config, per_file=False)).files(paths, snapshots, unlisted)  # nested configurations too
    results: list[FileResult | None] = [None] * len(files)
    todo = list(range(len(files)))
    if warm:
        still_clean = result_cache.still_clean(files)
        results = [FileResult(path) if clean else None for path, clean in zip(files, still_clean)]  # (kind: nothing reads it)
        todo = []
        for position in [position for position, clean in enumerate(still_clean) if not clean]:
            decided, _, stat = _by_stat(files[position], result_cache, stats=True)
            if decided is not None:
                _store(result_cache, decided, stat)
            elif stat is not None and (entry := result_cache.recall(files[position], stat, checker.cache_context(files[position]))):
                decided = _cached(files[position], entry)  # unchanged since its result was looked up by content
            else:
                todo.append(position)
            results[position] = decided
        if count == 2 and len(todo) >= LARGE_TREE_FILES:
            reader = _start_reader(checker, result_cache)  # a cache that misses a large tree
    if reader is not None:
        if len(todo) >= LARGE_TREE_FILES:
            from .forked_reader import run_pipelined

            for position, result in zip(todo, run_pipelined([files[p] for p in todo], checker, result_cache, reader)):
                results[position] = result
            return _done(checker, results, unlisted, result_cache)
        reader.stop()
    pending: list[int] = []
    for position in todo:
        triaged = _triage(checker, files[position], result_cache, stats=result_cache is not None)
        if triaged.result is None:
            pending.append(position)
            continue
        results[position] = triaged.result
        _store(result_cache, triaged.result, triaged.clean_stat)
    pending_paths = [files[position] for position in pending]
    if count > 1 and len(pending_paths) > 1 and (workers is not None or len(pending_paths) >= PARALLEL_MIN_FILES):
        with _pool(checker, count) as pool:
            computed = list(pool.map(_check_in_worker, pending_paths, chunksize=max(1, len(pending_paths) // (count * 8))))
    else:
        computed = [_check_file(checker, path) for path in pending_paths]
    for position, result in zip(pending, computed):
        results[position] = result
        _store(result_cache, result, None)
    return _done(checker, results, unlisted, result_cache)


def _done(checker: Checker, results: list, unlisted: list[tuple[str, str]], result_cache: cache.ResultCache | None) -> list[FileResult]:
    """The results in the files' order, then the folders not listed; clients tied across files (`cross_file`)."""
    done = [result for result in results if result is not None] + [checker.unreadable(path, reason) for path, reason in unlisted]
    return tie_clients(checker, done, result_cache)


def _start_reader(checker: Checker, result_cache: cache.ResultCache | None):
    from .forked_reader import start_reader  # (it imports this module)

    return start_reader(checker, result_cache)
