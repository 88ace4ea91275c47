"""A large tree on two cores, read by this process and a forked reader together: the reader
takes chunks of files from the front, this process from the back. Every Python file that
passes the prefilter is checked in the reader (this process hands over those it finds), every
other kind that passes in this process (the reader hands back those it finds): the reader
imports the Python frontend and its value flow while this process walks the tree, and this
process imports the shell, YAML, Dockerfile and TOML frontends only for a file that needs one.
"""

from __future__ import annotations

import gc
import os
import signal
import struct
import sys
from contextlib import suppress
from typing import Callable

from .. import frontends
from ..engine import cache
from ..engine.checker import Checker, FileResult
from .triage import check_file, read_and_check, store, triage

_CHUNK = 64  # files per task then: small enough that neither process waits long for the other at the end
_INDICES = 16  # the reader's shared memory: two indices, then the file list
_SHARED_BYTES = 1 << 28  # virtual: a file list this large is about 4 million paths


def _preload() -> None:
    """The reader starts while this process walks the tree: it imports what it needs then, instead
    of at its first relevant file: the Python frontend with its value flow (about 60 ms, about
    what the walk takes; a tree has far more Python files that pass than other kinds, and
    checking them costs more)."""
    frontends.load("python")


# What both processes import to check the files that pass: the rules and suppressions (30 ms),
# what judging a launch reads (the project's pins, vLLM's command line, the launchers and the
# frameworks' engine mappings: 25 ms), and pickle (their answers).
_SHARED_MODULES = (
    "replaylint.rules",
    "replaylint.engine.suppress",
    "replaylint.engine.project",
    "replaylint.engine.project.model_folder",
    "replaylint.launch_context",
    "replaylint.vllm.command_line",
    "replaylint.programs",
    "replaylint.frameworks.engine_mappings",
    "pickle",
)


def _load_shared() -> None:
    """What both processes need, loaded once before the fork rather than in each: Hyperscan's
    database when installed (both read thousands of files), and `_SHARED_MODULES`."""
    import importlib

    frontends.triggers.load_for_a_large_tree()  # (no-op without Hyperscan)
    for module in _SHARED_MODULES:
        importlib.import_module(module)


def _read_chunk(
    checker: Checker, result_cache: cache.ResultCache | None, paths: list[str], first: int, stats: bool, hand_back: Callable[[int], None]
) -> list[tuple[FileResult | str | None, tuple[int, int] | None]]:
    """The reader's chunk of files (the first at index `first`): each file's result, or its kind
    alone ("" for none) when the prefilter decided it (most files: results cost more to send
    than to make), or None for a file of another kind than Python that passed, handed back to
    the main process."""
    read: list[tuple[FileResult | str | None, tuple[int, int] | None]] = []
    for index, path in enumerate(paths, first):
        triaged = triage(checker, path, result_cache, stats)
        if triaged.turned_away:
            read.append((triaged.kind, triaged.clean_stat))
            continue
        if triaged.decided is None and triaged.kind != "python":
            hand_back(index)
            read.append((None, None))
            continue
        result = triaged.decided or check_file(checker, path, triaged.data)
        decided = result == FileResult(path, kind=result.kind)
        read.append((result.kind or "" if decided else result, triaged.clean_stat))
    return read


def start_reader(checker: Checker, result_cache: cache.ResultCache | None) -> _Reader | None:
    if not _Reader.available():
        return None
    _load_shared()
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
        self._back_in, back_out = os.pipe()
        self._results_in, results_out = os.pipe()
        gc.freeze()  # what is imported so far: neither process's collections walk it, nor copy its pages
        self.pid = os.fork()
        if self.pid == 0:  # the reader
            status = 1
            try:
                for descriptor in (self._list_out, self._handed_out, self._back_in, self._results_in):
                    os.close(descriptor)
                self._serve(checker, result_cache, (list_in, handed_in, back_out, results_out))
                status = 0
            finally:
                os._exit(status)  # nothing of this process's exit (buffers, atexit) runs twice
        for descriptor in (list_in, handed_in, back_out, results_out):
            os.close(descriptor)
        self.handed_back = _Handed(self._back_in)

    @staticmethod
    def available() -> bool:
        """fork exists (not on Windows), is safe (macOS libraries may not survive it), and no
        other thread runs (the language server's)."""
        threading = sys.modules.get("threading")
        return hasattr(os, "fork") and sys.platform != "darwin" and (threading is None or threading.active_count() == 1)

    def _serve(self, checker: Checker, result_cache: cache.ResultCache | None, ends: tuple[int, int, int, int]) -> None:
        import pickle

        list_in, handed_in, back_out, results_out = ends
        _preload()
        length = int.from_bytes(_read_all(list_in, 8), "little")
        if not length:
            return
        files, stats = pickle.loads(self.shared[_INDICES : _INDICES + length])
        read: dict[int, list] = {}
        parsed: dict[int, FileResult] = {}
        handed = _Handed(handed_in)
        os.set_blocking(back_out, False)

        def hand_back(index: int) -> None:
            try:
                os.write(back_out, index.to_bytes(4, "little"))  # 4 bytes: written whole or not at all
            except BlockingIOError:  # this process waits for this one's pipe: check the file here
                parsed[index] = check_file(checker, files[index])

        while True:
            for index in handed.waiting():  # first: this process waits for them at the end
                parsed[index] = check_file(checker, files[index])
            if (chunk := self._take(front=True)) is None:
                break
            read[chunk] = _read_chunk(checker, result_cache, files[chunk * _CHUNK : (chunk + 1) * _CHUNK], chunk * _CHUNK, stats, hand_back)
        os.close(back_out)  # this process checks what was handed back, then closes its end of `handed`
        for index in handed.rest():
            parsed[index] = check_file(checker, files[index])
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
        """Give the reader a Python file that passed this process's prefilter to check; False
        when the reader is gone."""
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
        for descriptor in (self._results_in, self._back_in, self._token_in, self._token_out):
            os.close(descriptor)
        self.shared.close()


class _Handed:
    """The receiving end of the files handed over a pipe, from this process to the reader or
    back: indices of four bytes each."""

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
        """Every index still to come, until the sending end closes."""
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


def run_pipelined(files: list[str], checker: Checker, result_cache: cache.ResultCache | None, reader: _Reader) -> list[FileResult]:
    """A large tree on two cores. Reading it (the prefilter) costs about what checking the files
    that pass costs, and a process that checks imports their frontends (the Python one and the
    rules 90 ms, libcst 0.2 s more). So the reader, which imported the Python frontend while
    this process walked, reads the tree in chunks from the front and hands back the files of
    other kinds that pass, while this process reads chunks from the back, checks those (its own
    and those handed back) and hands the reader the Python files that pass."""
    stats = result_cache is not None
    chunks = [files[start : start + _CHUNK] for start in range(0, len(files), _CHUNK)]
    done: list[list[tuple[FileResult | None, tuple[int, int] | None]]] = [[] for _ in chunks]
    from_reader: dict[int, list] = {}
    parsed: dict[int, FileResult] = {}
    mine: dict[int, FileResult] = {}  # the files the reader handed back
    try:
        if reader.start(files, stats, len(chunks)):
            while (chunk := reader.take_from_back()) is not None:
                for index in reader.handed_back.waiting():
                    mine[index] = check_file(checker, files[index])
                done[chunk] = [
                    _read_or_hand(checker, result_cache, reader, path, index, stats)
                    for index, path in enumerate(chunks[chunk], chunk * _CHUNK)
                ]
            for index in reader.handed_back.rest():
                mine[index] = check_file(checker, files[index])
            from_reader, parsed = reader.results()
    finally:
        reader.stop()
    for chunk, paths in enumerate(chunks):
        if chunk in from_reader:
            done[chunk] = [
                (FileResult(path, kind=result or None) if isinstance(result, str) else result, stat)
                for path, (result, stat) in zip(paths, from_reader[chunk])
            ]
        elif not done[chunk]:  # the reader's, and it died; or no reader
            done[chunk] = [read_and_check(checker, result_cache, path, stats) for path in paths]
    results = []
    for index, (result, stat) in enumerate(pair for pairs in done for pair in pairs):
        if result is None:  # handed to the reader, or back
            result = parsed.get(index) or mine.get(index) or check_file(checker, files[index])
        store(result_cache, result, stat)
        results.append(result)
    return results


def _read_or_hand(
    checker: Checker, result_cache: cache.ResultCache | None, reader: _Reader, path: str, index: int, stats: bool
) -> tuple[FileResult | None, tuple[int, int] | None]:
    """A file of this process's chunk: its result, or None when it passed the prefilter, is
    Python and was handed to the reader."""
    triaged = triage(checker, path, result_cache, stats)
    result = triaged.result
    if result is None and triaged.kind == "python" and reader.hand(index):
        return None, None
    return result or check_file(checker, path, triaged.data), triaged.clean_stat
