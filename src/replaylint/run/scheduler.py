"""Whole runs: every file of the paths, checked through the result cache and, for larger
trees, by worker processes (a large tree is read by this process while workers parse it);
results come back in the order of the files. Each file is checked within the memory its
process may take for it (`source.memory_bound`): one that runs out is RPL902, and the run
goes on.
"""

from __future__ import annotations

import os
import signal
import struct
import sys
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from typing import Callable

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
_CHUNK = 64  # files per task then: small enough that neither process waits long for the other at the end
_INDICES = 16  # the reader's shared memory: two indices, then the file list
_SHARED_BYTES = 1 << 28  # virtual: a file list this large is about 4 million paths
# The hard bound of one file's check over the budget's own (`Budget.memory`, checked as the work
# goes): room for what one step allocates before the budget's next look.
_MEMORY_SLACK = 64 << 20
_worker_checker: Checker | None = None
_worker_cache: cache.ResultCache | None = None


def _start_worker(config: Config, pins: ProjectPins | None, cached: bool, roots: tuple[str, ...] | None, budget: dict, settings) -> None:
    global _worker_checker
    _worker_checker = Checker(config, pins, cached, roots, settings)
    _worker_checker.budget = budget


def _preload(list_ready: Callable[[], bool]) -> None:
    """The reader starts while this process walks the tree: it imports what any tree needs then
    (the Python frontend, the rules, Hyperscan when installed), instead of at its first relevant
    file, and the other frontends (30 ms each for shell and YAML) while it still waits for the
    file list; a frontend not loaded by then is imported by the first file that needs it."""
    import importlib

    frontends.load("python")
    for module in ("replaylint.rules", "replaylint.engine.suppress"):
        importlib.import_module(module)
    frontends.triggers.use_hyperscan(True)  # a large tree: worth its import from the first file (no-op without it)
    for kind in ("yaml", "shell", "dockerfile", "toml"):
        if list_ready():
            return
        frontends.load(kind)


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


def _read_in_worker(paths: list[str], stats: bool) -> list[tuple[FileResult | str | None, tuple[int, int] | None]]:
    """`_read` for a chunk of files, a file the prefilter decided sent back as its kind alone
    (most files: results cost more to send than to make)."""
    assert _worker_checker is not None
    read = [_read(_worker_checker, _worker_cache, path, stats) for path in paths]
    return [(result.kind if result == FileResult(path, kind=result.kind) else result, stat) for path, (result, stat) in zip(paths, read)]


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
            for position, result in zip(todo, _run_pipelined([files[p] for p in todo], checker, result_cache, reader)):
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


def _start_reader(checker: Checker, result_cache: cache.ResultCache | None) -> _Reader | None:
    if not _Reader.available():
        return None
    try:
        return _Reader(checker, result_cache)
    except OSError:  # no memory to map, no process to fork: this process reads alone
        return None


class _Reader:
    """A forked process that reads a large tree's chunks from the front while this one reads them
    from the back. They meet through two indices in shared memory guarded by a token in a pipe,
    so neither waits on the other (an executor's feeding thread would wait for this process's
    GIL, which a long `compile()` holds), and forking costs no `multiprocessing` import (11 ms).
    The file list goes over shared memory too (a pipe would block until the reader drained it);
    the results come back over a pipe."""

    def __init__(self, checker: Checker, result_cache: cache.ResultCache | None) -> None:
        import mmap

        self.shared = mmap.mmap(-1, _SHARED_BYTES)  # anonymous and shared: pages cost only when written
        self._token_in, self._token_out = os.pipe()
        os.write(self._token_out, b"\0")
        list_in, self._list_out = os.pipe()
        handed_in, self._handed_out = os.pipe()
        self._results_in, results_out = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the reader
            status = 1
            try:
                for descriptor in (self._list_out, self._handed_out, self._results_in):
                    os.close(descriptor)
                self._serve(checker, result_cache, list_in, handed_in, results_out)
                status = 0
            finally:
                os._exit(status)  # nothing of this process's exit (buffers, atexit) runs twice
        for descriptor in (list_in, handed_in, results_out):
            os.close(descriptor)

    @staticmethod
    def available() -> bool:
        """fork exists (not on Windows), is safe (macOS libraries may not survive it), and no
        other thread runs (the language server's)."""
        threading = sys.modules.get("threading")
        return hasattr(os, "fork") and sys.platform != "darwin" and (threading is None or threading.active_count() == 1)

    def _serve(self, checker: Checker, result_cache: cache.ResultCache | None, list_in: int, handed_in: int, results_out: int) -> None:
        import pickle
        import select

        global _worker_checker, _worker_cache
        checker.light = True
        _worker_checker, _worker_cache = checker, result_cache
        _preload(lambda: bool(select.select([list_in], [], [], 0)[0]))
        length = int.from_bytes(_read_all(list_in, 8), "little")
        if not length:
            return
        files, stats = pickle.loads(self.shared[_INDICES : _INDICES + length])
        read: dict[int, list] = {}
        parsed: dict[int, FileResult] = {}
        handed = _Handed(handed_in)
        while True:
            for index in handed.waiting():  # first: this process waits for them at the end
                parsed[index] = _check_file(checker, files[index])
            if (chunk := self._take(front=True)) is None:
                break
            read[chunk] = _read_in_worker(files[chunk * _CHUNK : (chunk + 1) * _CHUNK], stats)
        for index in handed.rest():
            parsed[index] = _check_file(checker, files[index])
        data = pickle.dumps((read, parsed), pickle.HIGHEST_PROTOCOL)
        while data:
            data = data[os.write(results_out, data) :]

    def start(self, files: list[str], stats: bool, chunks: int) -> bool:
        """Hand the reader the files; False when they do not fit in the shared memory."""
        import pickle

        data = pickle.dumps((files, stats), pickle.HIGHEST_PROTOCOL)
        if _INDICES + len(data) > _SHARED_BYTES:
            return False
        struct.pack_into("qq", self.shared, 0, 0, chunks)
        self.shared[_INDICES : _INDICES + len(data)] = data
        os.write(self._list_out, len(data).to_bytes(8, "little"))
        return True

    def _take(self, front: bool) -> int | None:
        """The next chunk from the front or the back, None when the two ends have met."""
        os.read(self._token_in, 1)
        try:
            first, end = struct.unpack_from("qq", self.shared, 0)
            if first >= end:
                return None
            struct.pack_into("qq", self.shared, 0, *((first + 1, end) if front else (first, end - 1)))
            return first if front else end - 1
        finally:
            os.write(self._token_out, b"\0")

    def take_from_back(self) -> int | None:
        return self._take(front=False)

    def hand(self, index: int) -> bool:
        """Give the reader a file that passed this process's prefilter to parse; False when the
        reader is gone."""
        try:
            os.write(self._handed_out, index.to_bytes(4, "little"))
        except OSError:
            return False
        return True

    def results(self) -> tuple[dict[int, list], dict[int, FileResult]]:
        """What the reader read, by chunk, and the files it was handed, by index ({} when it died)."""
        import pickle

        self._close_handed()  # the reader parses what it was handed, then answers
        try:
            return pickle.loads(_read_all(self._results_in))
        except Exception:  # a reader killed halfway leaves a partial pickle
            return {}, {}

    def _close_handed(self) -> None:
        if self._handed_out >= 0:
            os.close(self._handed_out)
            self._handed_out = -1

    def stop(self) -> None:
        os.close(self._list_out)  # a reader still waiting for files reads the end of them
        self._close_handed()
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        for descriptor in (self._results_in, self._token_in, self._token_out):
            os.close(descriptor)
        self.shared.close()


class _Handed:
    """The reader's end of the files handed to it: indices of four bytes each."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor
        os.set_blocking(descriptor, False)
        self.pending = b""

    def waiting(self) -> list[int]:
        """The indices sent so far, without waiting."""
        try:
            got = os.read(self.descriptor, 1 << 16)
        except BlockingIOError:
            return []
        return self._indices(got)

    def rest(self) -> list[int]:
        """Every index still to come, until this process's end closes."""
        os.set_blocking(self.descriptor, True)
        return self._indices(_read_all(self.descriptor))

    def _indices(self, got: bytes) -> list[int]:
        data = self.pending + got
        whole = len(data) - len(data) % 4
        self.pending = data[whole:]
        return [int.from_bytes(data[start : start + 4], "little") for start in range(0, whole, 4)]


def _read_all(descriptor: int, size: int = -1) -> bytes:
    """`size` bytes from a pipe (all until it closes when -1); fewer when it closes first."""
    parts, got = [], 0
    while size < 0 or got < size:
        part = os.read(descriptor, 1 << 20 if size < 0 else size - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def _run_pipelined(files: list[str], checker: Checker, result_cache: cache.ResultCache | None, reader: _Reader) -> list[FileResult]:
    """A large tree on two cores. Reading it (the prefilter) costs about what parsing costs, and
    a process that parses first imports the frontends (60 ms; libcst 0.2 s more). So a light
    reader reads the tree in chunks from the front, parsing all it can without libcst, while
    this process reads chunks from the back, parses the Python files that pass and hands the
    reader the others (it never imports the shell, YAML, Dockerfile and TOML frontends); then
    it parses the Python files the reader left to it (libcst)."""
    stats = result_cache is not None
    chunks = [files[start : start + _CHUNK] for start in range(0, len(files), _CHUNK)]
    done: list[list[tuple[FileResult | None, tuple[int, int] | None]]] = [[] for _ in chunks]
    from_reader: dict[int, list] = {}
    parsed: dict[int, FileResult] = {}
    try:
        if reader.start(files, stats, len(chunks)):
            while (chunk := reader.take_from_back()) is not None:
                for index, path in enumerate(chunks[chunk], chunk * _CHUNK):
                    triaged = _triage(checker, path, result_cache, stats)
                    if triaged.result is None and triaged.kind != "python" and reader.hand(index):
                        done[chunk].append((None, None))
                    else:
                        done[chunk].append((triaged.result or _check_file(checker, path, triaged.data), triaged.clean_stat))
            from_reader, parsed = reader.results()
    finally:
        reader.stop()
    for chunk, paths in enumerate(chunks):
        if chunk in from_reader:
            done[chunk] = [
                (result if isinstance(result, FileResult) else FileResult(path, kind=result), stat)
                for path, (result, stat) in zip(paths, from_reader[chunk])
            ]
        elif not done[chunk]:  # the reader's, and it died; or no reader
            done[chunk] = [_read(checker, result_cache, path, stats) for path in paths]
    results = []
    for index, (result, stat) in enumerate(pair for pairs in done for pair in pairs):
        if result is None:  # handed to the reader
            result = parsed.get(index) or _check_file(checker, files[index])
        if result.deferred is not None and result.digest is not None:
            checker.prepared[result.path] = (result.digest, result.deferred)
            result = _check_file(checker, result.path)
        _store(result_cache, result, stat)
        results.append(result)
    return results
