"""Whole runs: every file of the paths, checked through the result cache and, for larger
trees, by worker processes (a large tree is read by this process while workers parse it);
results come back in the order of the files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from . import cache, frontends
from .api import Checker, FileResult
from .config import Config
from .discovery import discover, read_head
from .versions import ProjectPins

PARALLEL_MIN_FILES = 24  # files to parse; below this, starting workers costs more than it saves
LARGE_TREE_FILES = 2000  # a tree this large is read by this process and a worker together
_CHUNK = 64  # files per task then: small enough that neither process waits long for the other at the end
_worker_checker: Checker | None = None
_worker_cache: cache.ResultCache | None = None


def _start_worker(config: Config, pins: ProjectPins | None, result_cache: cache.ResultCache | None = None, light: bool = False) -> None:
    global _worker_checker, _worker_cache
    _worker_checker, _worker_cache = Checker(config, pins), result_cache
    _worker_checker.light = light
    if light:
        _preload()


def _preload() -> None:
    """The reading worker starts while this process walks the tree: it imports the frontends and
    the rules then, instead of at the first file of each kind (70 ms that would fall in the read)."""
    import importlib

    for kind in frontends.KINDS:
        frontends.load(kind)
    for module in ("replaylint.rules", "replaylint.suppress"):
        importlib.import_module(module)


def _check_in_worker(path: str) -> FileResult:
    assert _worker_checker is not None
    return _worker_checker.check_file(path)


def _read_in_worker(paths: list[str], stats: bool) -> list[tuple[FileResult | str | None, tuple[int, int] | None]]:
    """`_read` for a chunk of files, a file the prefilter decided sent back as its kind alone
    (most files: results cost more to send than to make)."""
    assert _worker_checker is not None
    read = [_read(_worker_checker, _worker_cache, path, stats) for path in paths]
    return [(result.kind if result == FileResult(path, kind=result.kind) else result, stat) for path, (result, stat) in zip(paths, read)]


def _stat(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_size, status.st_mtime_ns)


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
    remembers the prefilter turned away, unchanged since. Also its kind and stat."""
    kind = _kind(path)
    if kind is None:
        return FileResult(path), None, None
    stat = _stat(path) if stats else None
    if stat is not None and result_cache is not None and result_cache.is_clean(path, stat):
        return FileResult(path, kind=kind), kind, stat
    return None, kind, stat


def _kind(path: str) -> str | None:
    return frontends.kind_for(path, read_head(path) if "." not in path[path.rfind(os.sep) + 1 :] else b"")


def _triage(checker: Checker, path: str, result_cache: cache.ResultCache | None, stats: bool) -> _Triaged:
    decided, kind, stat = _by_stat(path, result_cache, stats)
    if decided is not None:
        return _Triaged(decided)
    assert kind is not None
    data = checker.read(path)
    if isinstance(data, FileResult):
        return _Triaged(data)
    if not frontends.relevant(kind, data):
        return _Triaged(FileResult(path, kind=kind), clean_stat=stat)
    entry = result_cache.lookup(path, checker.cache_key(path, data)) if result_cache is not None else None
    if entry is not None:
        return _Triaged(FileResult(path, list(entry.findings), list(entry.notes), kind=entry.kind, parsed=True))
    return _Triaged(data=data, kind=kind)


def _read(checker: Checker, result_cache: cache.ResultCache | None, path: str, stats: bool) -> tuple[FileResult, tuple[int, int] | None]:
    """A file's result, from the prefilter, the cache or a parse; and its stat when clean."""
    triaged = _triage(checker, path, result_cache, stats)
    return (triaged.result or checker.check_data(path, triaged.data)), triaged.clean_stat


def _pool(checker: Checker, workers: int, result_cache: cache.ResultCache | None = None, light: bool = False):
    from concurrent.futures import ProcessPoolExecutor

    initargs = (checker.config, checker.project_pins, result_cache, light)
    return ProcessPoolExecutor(workers, initializer=_start_worker, initargs=initargs)


def _store(result_cache: cache.ResultCache | None, result: FileResult, clean_stat: tuple[int, int] | None) -> None:
    if result_cache is None:
        return
    if clean_stat is not None:
        result_cache.mark_clean(result.path, clean_stat)
    elif result.digest is not None and not (result.internal_error or result.error):
        result_cache.store(result.path, result.digest, result.findings, result.notes, result.kind, result.dependencies)


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
        reader = _Reader(checker, result_cache)
    snapshots = result_cache.snapshots if result_cache is not None else None
    files = list(discover(paths, config.excludes, config.respect_gitignore, config.force_exclude, snapshots))
    results: list[FileResult | None] = [None] * len(files)
    todo = list(range(len(files)))
    if warm:
        todo = []
        for position, (path, clean) in enumerate(zip(files, result_cache.still_clean(files))):
            decided = FileResult(path, kind=_kind(path)) if clean else _by_stat(path, result_cache, stats=True)[0]
            if decided is None:
                todo.append(position)
            results[position] = decided
        if count == 2 and len(todo) >= LARGE_TREE_FILES:
            reader = _Reader(checker, result_cache)  # a cache that misses a large tree
    if reader is not None:
        if len(todo) >= LARGE_TREE_FILES:
            for position, result in zip(todo, _run_pipelined([files[p] for p in todo], checker, result_cache, reader)):
                results[position] = result
            return [result for result in results if result is not None]
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
        computed = [checker.check_file(path) for path in pending_paths]
    for position, result in zip(pending, computed):
        results[position] = result
        _store(result_cache, result, None)
    return [result for result in results if result is not None]


class _Reader:
    """A process that reads a large tree's chunks from the front while this one reads them from
    the back. The two meet through a pair of indices in shared memory, so neither waits on the
    other: an executor's feeding thread would need this process's GIL, which a long `compile()`
    of a large Python file holds (the reader then idled for most of a run)."""

    def __init__(self, checker: Checker, result_cache: cache.ResultCache | None) -> None:
        import multiprocessing

        self.bounds = multiprocessing.RawArray("q", 2)  # next chunk from the front, end of the back
        self.lock = multiprocessing.Lock()
        self.connection, child_connection = multiprocessing.Pipe()
        initargs = (checker.config, checker.project_pins, result_cache, True)
        self.process = multiprocessing.Process(target=_reader_main, args=(child_connection, self.bounds, self.lock, initargs), daemon=True)
        self.process.start()  # now, so it imports the frontends while this process walks the tree
        child_connection.close()

    def take_from_back(self) -> int | None:
        with self.lock:
            if self.bounds[0] >= self.bounds[1]:
                return None
            self.bounds[1] -= 1
            return self.bounds[1]

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.connection.close()


def _reader_main(connection: Any, bounds: Any, lock: Any, initargs: tuple) -> None:
    _start_worker(*initargs)
    try:
        files, stats = connection.recv()
    except EOFError:  # not needed after all
        return
    read: dict[int, list] = {}
    while True:
        with lock:
            chunk = bounds[0]
            if chunk >= bounds[1]:
                break
            bounds[0] = chunk + 1
        read[chunk] = _read_in_worker(files[chunk * _CHUNK : (chunk + 1) * _CHUNK], stats)
    connection.send(read)


def _run_pipelined(files: list[str], checker: Checker, result_cache: cache.ResultCache | None, reader: _Reader) -> list[FileResult]:
    """A large tree on two cores. Reading it (the prefilter) costs about what parsing costs, and
    a process that parses Python with libcst first imports it (0.2 s). So a light reader reads
    the tree in chunks from the front, parsing all it can without libcst, while this process
    reads chunks from the back, then parses the Python files the reader left to it."""
    stats = result_cache is not None
    chunks = [files[start : start + _CHUNK] for start in range(0, len(files), _CHUNK)]
    done: list[list[tuple[FileResult, tuple[int, int] | None]]] = [[] for _ in chunks]
    reader.bounds[0], reader.bounds[1] = 0, len(chunks)
    reader.connection.send((files, stats))
    while (chunk := reader.take_from_back()) is not None:
        done[chunk] = [_read(checker, result_cache, path, stats) for path in chunks[chunk]]
    try:
        from_reader = reader.connection.recv()
    except (EOFError, OSError):  # the reader died: its chunks are read here
        from_reader = {}
    reader.stop()
    for chunk, paths in enumerate(chunks):
        if chunk not in from_reader:
            if not done[chunk]:
                done[chunk] = [_read(checker, result_cache, path, stats) for path in paths]
            continue
        for path, (result, stat) in zip(paths, from_reader[chunk]):
            if not isinstance(result, FileResult):
                result = FileResult(path, kind=result)
            elif result.deferred is not None and result.digest is not None:
                checker.prepared[path] = (result.digest, result.deferred)
                result = checker.check_file(path)
            done[chunk].append((result, stat))
    results = []
    for result, stat in (pair for pairs in done for pair in pairs):
        _store(result_cache, result, stat)
        results.append(result)
    return results
