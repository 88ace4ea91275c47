"""Whole runs: every file of the paths, checked through the result cache and, for larger
trees, by worker processes (a large tree is read by this process and a forked reader
together: `forked_reader`);
results come back in the order of the files. Each file is checked within the memory its
process may take for it (`source.memory_bound`): one that runs out is RPL902, and the run
goes on.
"""

from __future__ import annotations

import os

from ..engine import cache
from ..engine.checker import Checker, FileResult
from ..engine.config import Config
from ..engine.hierarchy import ConfigPerFile
from ..engine.versions import ProjectPins
from .cross_file import tie_clients
from .fork_launches import recheck_fork_launches
from .triage import by_stat, cached_result, check_file, store, triage

PARALLEL_MIN_FILES = 24  # files to parse; below this, starting workers costs more than it saves
LARGE_TREE_FILES = 2000  # a tree this large is read by this process and a worker together
READER_AFTER_FILES = 512  # files a walk finds before a cold run starts the reader (fewer: a small tree)
_worker_checker: Checker | None = None


def _start_worker(config: Config, pins: ProjectPins | None, cached: bool, roots: tuple[str, ...] | None, budget: dict, settings) -> None:
    global _worker_checker
    _worker_checker = Checker(config, pins, cached, roots, settings)
    _worker_checker.budget = budget


def _check_in_worker(path: str) -> FileResult:
    return check_file(_worker_checker, path)  # type: ignore[arg-type]  (`_start_worker` set it)


def _pool(checker: Checker, workers: int):
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        workers,
        initializer=_start_worker,
        initargs=(checker.config, checker.project_pins, checker.cached, checker.roots, checker.budget, checker.settings),
    )


def run_checks(
    paths: list[str], config: Config, checker: Checker, result_cache: cache.ResultCache | None = None, workers: int | None = None
) -> list[FileResult]:
    """Check every discovered file. With a cache that remembers files, their stats decide most of
    them first, in this process. A large tree left to read, on two cores, is read by a worker and
    this process together (`_run_pipelined`); otherwise this process runs the prefilter and the
    cache over the files left, and parses what passes here or, when many, in worker processes."""
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    warm = result_cache is not None and result_cache.remembers_files()
    # A folder may be a large tree: a cold run starts the reading worker once the walk has found
    # enough files, and it reads the files the walk has found while the walk goes on.
    starting = None
    if count == 2 and not warm and any(os.path.isdir(path) for path in paths):
        starting = _OnceLarge(checker, result_cache, min(READER_AFTER_FILES, LARGE_TREE_FILES))
    snapshots = result_cache.snapshots if result_cache is not None else None
    unlisted: list[tuple[str, str]] = []
    settings = checker.settings or ConfigPerFile(config, per_file=False)
    try:
        files = settings.files(paths, snapshots, unlisted, starting.add if starting is not None else None)  # nested configurations too
    except BaseException:
        if starting is not None and starting.reader is not None:
            starting.reader.stop()
        raise
    reader = starting.reader if starting is not None else None
    results: list[FileResult | None] = [None] * len(files)
    todo = list(range(len(files)))
    if warm:
        still_clean = result_cache.still_clean(files)
        results = [
            FileResult(path) if clean else None for path, clean in zip(files, still_clean)
        ]  # no kind: cross_file finds these YAML files by the cache (`turned_away`)
        todo = []
        for position in [position for position, clean in enumerate(still_clean) if not clean]:
            decided, _, stat = by_stat(files[position], result_cache, stats=True)
            if decided is not None:
                store(result_cache, decided, stat)
            elif stat is not None and (entry := result_cache.recall(files[position], stat, checker.cache_context(files[position]))):
                decided = cached_result(files[position], entry)  # unchanged since its result was looked up by content
            else:
                todo.append(position)
            results[position] = decided
        if count == 2 and len(todo) >= LARGE_TREE_FILES:
            reader = _start_reader(checker, result_cache)  # a cache that misses a large tree
    elif starting is not None and starting.told is not None and len(todo) >= LARGE_TREE_FILES:
        reader = _start_reader(checker, result_cache)  # a large tree whose walk told no folder (a snapshot gave it)
    if reader is not None:
        if len(todo) >= LARGE_TREE_FILES or not reader.withdraw():  # (it has started on a smaller tree)
            from .forked_reader import run_pipelined

            for position, result in zip(todo, run_pipelined([files[p] for p in todo], checker, result_cache, reader)):
                results[position] = result
            return _done(checker, results, unlisted, result_cache)
        reader.stop()
    pending: list[int] = []
    for position in todo:
        triaged = triage(checker, files[position], result_cache, stats=result_cache is not None)
        result = triaged.result
        if result is None:
            pending.append(position)
            continue
        results[position] = result
        store(result_cache, result, triaged.clean_stat)
    pending_paths = [files[position] for position in pending]
    if count > 1 and len(pending_paths) > 1 and (workers is not None or len(pending_paths) >= PARALLEL_MIN_FILES):
        with _pool(checker, count) as pool:
            computed = list(pool.map(_check_in_worker, pending_paths, chunksize=max(1, len(pending_paths) // (count * 8))))
    else:
        computed = [check_file(checker, path) for path in pending_paths]
    for position, result in zip(pending, computed):
        results[position] = result
        store(result_cache, result, None)
    return _done(checker, results, unlisted, result_cache)


def _done(checker: Checker, results: list, unlisted: list[tuple[str, str]], result_cache: cache.ResultCache | None) -> list[FileResult]:
    """The results in the files' order, then the folders not listed; clients tied across files
    (`cross_file`); a fork file named without its launches, with what they report in it (`fork_launches`)."""
    done = [result for result in results if result is not None] + [checker.unreadable(path, reason) for path, reason in unlisted]
    return recheck_fork_launches(checker, tie_clients(checker, done, result_cache))


def _start_reader(checker: Checker, result_cache: cache.ResultCache | None):
    from .forked_reader import start_reader  # (it imports this module)

    return start_reader(checker, result_cache)


class _OnceLarge:
    """The reader of a tree the walk finds large, started (what both processes need imported, the
    reader forked) once the walk has told `files` files, and given the folders told so far: a
    smaller tree is read by this process alone, which imports only what its files need (the
    shared modules, the Python frontend and the fork cost a folder of three files 80 ms of 127)."""

    def __init__(self, checker: Checker, result_cache: cache.ResultCache | None, files: int) -> None:
        self.checker, self.result_cache, self.files = checker, result_cache, files
        self.told: list[tuple[list[str], str | None]] | None = []  # None: the reader could not start
        self.count = 0
        self.reader = None

    def add(self, paths: list[str], walked: str | None) -> None:
        """`_Reader.add`, once the reader is started."""
        if self.reader is not None:
            self.reader.add(paths, walked)
            return
        if self.told is None:
            return
        self.told.append((paths, walked))
        self.count += len(paths)
        if self.count >= self.files:
            told, self.told = self.told, None
            self.reader = _start_reader(self.checker, self.result_cache)  # (forked here: the reader never returns to the walk)
            for folder in told if self.reader is not None else ():
                self.reader.add(*folder)
