"""A large tree on two cores, read by this process and a forked reader together: the reader
takes chunks of files from the front, as soon as the walk has found them, this process from
the back once the walk is done (the files the walk found and nested configurations then left
out are dropped, those they added follow the others). Each process checks the Python files
that pass in its chunks (the Python frontend and its value flow are imported before the fork),
and every other kind that passes in this process (the reader hands back those it finds): this
process imports the shell, YAML, Dockerfile and TOML frontends only for a file that needs one.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import struct
import sys
from contextlib import suppress
from typing import TYPE_CHECKING, Callable

from .. import frontends
from ..engine import cache
from ..engine.checker import Checker, FileResult
from .triage import check_file, read_and_check, store, triage

if TYPE_CHECKING:
    from ..engine.hierarchy import ConfigPerFile

_CHUNK = 64  # files per task then: small enough that neither process waits long for the other at the end
# The shared memory: three indices (`_change`), where each chunk's paths end, then the paths.
_MAX_CHUNKS = 1 << 16
_TABLE = 24
_DATA = _TABLE + 8 * _MAX_CHUNKS
_SHARED_BYTES = 1 << 28  # virtual: pages cost only when written
_NOT_YET = -1  # no chunk to take yet: the walk goes on


# What both processes import to check the files that pass: the rules and suppressions (30 ms),
# what judging a launch reads (the project's pins, vLLM's command line, the launchers and the
# frameworks' engine mappings: 25 ms); and the Python frontend with its value flow (25 ms): each
# process checks the Python files of its chunks, so the files that cost most (a Python file's
# value flow takes up to 50 ms) are shared out as the chunks are, and neither waits for the
# other at the end (when only the reader checked them, this process waited 70 ms for it).
_SHARED_MODULES = (
    "replaylint.rules",
    "replaylint.engine.suppress",
    "replaylint.engine.project",
    "replaylint.engine.project.model_folder",
    "replaylint.launch_context",
    "replaylint.vllm.command_line",
    "replaylint.programs",
    "replaylint.frameworks.engine_mappings",
    "replaylint.frontends.python",
)


def _load_shared() -> None:
    """What both processes need, loaded once before the fork rather than in each: Hyperscan's
    database when installed (both read thousands of files), and `_SHARED_MODULES`. What the
    imports make lives as long as the run: nothing is collected while they run (collections
    during them cost 6 ms), and it is frozen out of the collections before they start again (the
    first one walked all of it: 3 to 5 ms)."""
    import importlib

    enabled = gc.isenabled()
    gc.disable()
    try:
        frontends.triggers.load_for_a_large_tree()  # (no-op without Hyperscan)
        for module in _SHARED_MODULES:
            importlib.import_module(module)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


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
    from the back. They meet through indices in shared memory guarded by a token in a pipe, so
    neither waits on the other (an executor's feeding thread would wait for this process's GIL,
    which a long `compile()` holds), and forking costs no `multiprocessing` import (11 ms).
    The files go over shared memory too, a chunk as soon as the walk has found it (`add`), so
    the reader reads the front of the tree while this process walks the rest (a pipe would
    block until the reader drained it); a ping on a pipe wakes a reader waiting for a chunk.
    The files of other kinds than Python that pass come back over a pipe, the results over
    another."""

    def __init__(self, checker: Checker, result_cache: cache.ResultCache | None) -> None:
        import mmap

        self.shared = mmap.mmap(-1, _SHARED_BYTES)  # anonymous and shared: pages cost only when written
        self.streamed: list[str] = []  # the files added, in the order of their chunks
        self.published = 0  # chunks the reader may take
        self._bytes = 0  # of their paths in the shared memory
        self._walked: dict[str, str] = {}  # a folder added: the folder whose walk's configuration its files take
        self._token_in, self._token_out = os.pipe()
        os.write(self._token_out, b"\0")
        ping_in, self._ping_out = os.pipe()
        self._back_in, back_out = os.pipe()
        self._results_in, results_out = os.pipe()
        gc.freeze()  # what is imported so far: neither process's collections walk it, nor copy its pages
        self.pid = os.fork()
        if self.pid == 0:  # the reader
            status = 1
            try:
                for descriptor in (self._ping_out, self._back_in, self._results_in):
                    os.close(descriptor)
                self._serve(checker, result_cache, (ping_in, back_out, results_out))
                status = 0
            finally:
                os._exit(status)  # nothing of this process's exit (buffers, atexit) runs twice
        for descriptor in (ping_in, back_out, results_out):
            os.close(descriptor)
        os.set_blocking(self._ping_out, False)
        self.handed_back = _Handed(self._back_in)

    @staticmethod
    def available() -> bool:
        """fork exists (not on Windows), is safe (macOS libraries may not survive it), and no
        other thread runs (the language server's)."""
        threading = sys.modules.get("threading")
        return hasattr(os, "fork") and sys.platform != "darwin" and (threading is None or threading.active_count() == 1)

    def _serve(self, checker: Checker, result_cache: cache.ResultCache | None, ends: tuple[int, int, int]) -> None:
        ping_in, back_out, results_out = ends
        stats = result_cache is not None
        read: dict[int, list] = {}
        parsed: dict[int, FileResult] = {}
        os.set_blocking(back_out, False)
        chunks: dict[int, list[str]] = {}

        def path(index: int) -> str:
            if index // _CHUNK not in chunks:
                chunks[index // _CHUNK] = self._chunk(index // _CHUNK, checker.settings)
            return chunks[index // _CHUNK][index % _CHUNK]

        def hand_back(index: int) -> None:
            try:
                os.write(back_out, index.to_bytes(4, "little"))  # 4 bytes: written whole or not at all
            except BlockingIOError:  # this process waits for this one's pipe: check the file here
                parsed[index] = check_file(checker, path(index))

        while (chunk := self._take_from_front(ping_in)) is not None:
            chunks[chunk] = self._chunk(chunk, checker.settings)
            read[chunk] = _read_chunk(checker, result_cache, chunks[chunk], chunk * _CHUNK, stats, hand_back)
        os.close(back_out)
        data = pickle.dumps((read, parsed), pickle.HIGHEST_PROTOCOL)
        while data:
            data = data[os.write(results_out, data) :]

    def add(self, paths: list[str], walked: str | None) -> None:
        """Files of one folder the walk found, and the folder walked when they take its walk's
        configuration (`ConfigPerFile.files`): each chunk filled goes to the reader at once."""
        if walked is not None:
            self._walked[os.path.dirname(paths[0]) or "."] = walked
        self.streamed += paths
        while len(self.streamed) >= (self.published + 1) * _CHUNK and self._publish(self.published * _CHUNK):
            pass

    def finish(self, files: list[str]) -> list[str]:
        """The files to check are `files` (the walk's, after nested configurations walked their
        folders again): those not added yet follow those added, and no more come. The files
        added, in chunks: a file the reader reads that is not in `files` is dropped."""
        added = set(self.streamed)
        self.streamed += [path for path in files if path not in added]
        while self.published * _CHUNK < len(self.streamed) and self._publish(self.published * _CHUNK):
            pass
        self._change(lambda first, end, done: (first, end, 1))
        return self.streamed

    def withdraw(self) -> bool:
        """Stop adding files, if the reader has taken none yet (a small tree: this process reads it
        alone, or with a pool). False when it has: the tree is read together."""
        return self._change(lambda first, end, done: (0, 0, 1) if first == 0 else None)

    def _publish(self, start: int) -> bool:
        """The chunk of `streamed` from `start`, to the reader; False when the shared memory is full
        (this process reads the files left)."""
        paths = self.streamed[start : start + _CHUNK]
        folders = {os.path.dirname(path) or "." for path in paths}
        data = pickle.dumps(
            (paths, {folder: self._walked[folder] for folder in folders if folder in self._walked}), pickle.HIGHEST_PROTOCOL
        )
        if self.published == _MAX_CHUNKS or _DATA + self._bytes + len(data) > _SHARED_BYTES:
            return False
        self.shared[_DATA + self._bytes : _DATA + self._bytes + len(data)] = data
        self._bytes += len(data)
        struct.pack_into("q", self.shared, _TABLE + 8 * self.published, self._bytes)  # where the chunk ends
        self.published += 1
        self._change(lambda first, end, done: (first, end + 1, done))
        return True

    def _chunk(self, chunk: int, settings: ConfigPerFile | None) -> list[str]:
        """The paths of a chunk published (in the reader); `settings` learn the configuration of
        their folders that the walk knew."""
        start = struct.unpack_from("q", self.shared, _TABLE + 8 * (chunk - 1))[0] if chunk else 0
        end = struct.unpack_from("q", self.shared, _TABLE + 8 * chunk)[0]
        paths, walked = pickle.loads(self.shared[_DATA + start : _DATA + end])
        for folder, walk in walked.items() if settings is not None else ():
            settings.settle(folder, walk)
        return paths

    def _change(self, change: Callable[[int, int, int], tuple[int, int, int] | None]) -> bool:
        """Apply `change` to the indices (the next chunk from the front, the end of those left,
        whether more come), holding the token; then wake a reader waiting for a chunk. False when
        `change` gave None (nothing changed)."""
        os.read(self._token_in, 1)
        try:
            changed = change(*struct.unpack_from("qqq", self.shared, 0))
            if changed is not None:
                struct.pack_into("qqq", self.shared, 0, *changed)
        finally:
            os.write(self._token_out, b"\0")
        if changed is not None:
            with suppress(OSError):  # a full pipe wakes it as well; a reader gone needs no waking
                os.write(self._ping_out, b"\0")
        return changed is not None

    def _take_from_front(self, ping_in: int) -> int | None:
        """The next chunk from the front (in the reader), waiting while the walk has found no more;
        None when the two ends have met, or this process has gone."""
        while (taken := self._take(front=True)) == _NOT_YET:
            if not os.read(ping_in, 1 << 12):
                return None
        return taken

    def _take(self, front: bool) -> int | None:
        """The next chunk from the front or the back, None when the two ends have met (or
        `_NOT_YET` for the front while the walk goes on)."""
        os.read(self._token_in, 1)
        try:
            first, end, done = struct.unpack_from("qqq", self.shared, 0)
            if first >= end:
                return None if done else _NOT_YET
            struct.pack_into("qq", self.shared, 0, *((first + 1, end) if front else (first, end - 1)))
            return first if front else end - 1
        finally:
            os.write(self._token_out, b"\0")

    def take_from_back(self) -> int | None:
        return self._take(front=False)  # (once `finish` has said that no more come)

    def results(self) -> tuple[dict[int, list], dict[int, FileResult]]:
        """What the reader read, by chunk, and the files it checked itself when this process's
        pipe was full, by index ({} when it died)."""
        try:
            return pickle.loads(_read_all(self._results_in))
        except Exception:  # a reader killed halfway leaves a partial pickle
            return {}, {}

    def stop(self) -> None:
        os.close(self._ping_out)  # a reader still waiting for files reads the end of them
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        for descriptor in (self._results_in, self._back_in, self._token_in, self._token_out):
            os.close(descriptor)
        self.shared.close()


class _Handed:
    """The receiving end of the files the reader hands back over a pipe: indices of four bytes
    each."""

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
    rules 90 ms, libcst 0.2 s more). So the reader reads the tree in chunks from the front (from
    the first chunk the walk found), checks its Python files that pass and hands back the other
    kinds, while this process, once the walk is done, reads chunks from the back and checks
    those (its own and those handed back). The results are in the order of `files`."""
    stats = result_cache is not None
    from_reader: dict[int, list] = {}
    parsed: dict[int, FileResult] = {}
    mine: dict[int, FileResult] = {}  # the files the reader handed back
    try:
        streamed = reader.finish(files)
        chunks = [streamed[start : start + _CHUNK] for start in range(0, len(streamed), _CHUNK)]
        done: list[list[tuple[FileResult | None, tuple[int, int] | None]]] = [[] for _ in chunks]
        while (chunk := reader.take_from_back()) is not None:
            for index in reader.handed_back.waiting():
                mine[index] = check_file(checker, streamed[index])
            done[chunk] = [read_and_check(checker, result_cache, path, stats) for path in chunks[chunk]]
        for index in reader.handed_back.rest():
            mine[index] = check_file(checker, streamed[index])
        from_reader, parsed = reader.results()
    finally:
        reader.stop()
    for chunk, paths in enumerate(chunks):
        if chunk in from_reader:
            done[chunk] = from_reader[chunk]
        elif not done[chunk]:  # the reader's, and it died; or not published (the shared memory was full)
            done[chunk] = [read_and_check(checker, result_cache, path, stats) for path in paths]
    return _in_order(files, streamed, [pair for pairs in done for pair in pairs], {**parsed, **mine}, checker, result_cache)


def _in_order(
    files: list[str],
    streamed: list[str],
    read: list[tuple],
    checked: dict[int, FileResult],
    checker: Checker,
    result_cache: cache.ResultCache | None,
) -> list[FileResult]:
    """The results of `files`, in their order, from what was read of each of `streamed`: its result,
    its kind alone when the prefilter decided it (the reader's), or None when it was checked apart
    (`checked`, by index); each stored in the cache. The run is ending: what is made here (a result
    a file) is not collected, nor walked by the collections that follow (they took 4 ms here)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        if streamed == files and len(set(files)) == len(files):  # (the usual tree: no nested configuration changed the files)
            return [
                _stored(path, index, result, stat, checked, checker, result_cache)
                for index, (path, (result, stat)) in enumerate(zip(files, read))
            ]
        wanted, found = set(files), {}
        for index, (path, (result, stat)) in enumerate(zip(streamed, read)):
            if path in wanted and path not in found:  # (a file the walk found but nested configurations left out is dropped)
                found[path] = (index, result, stat)
        return [_stored(path, *found[path], checked, checker, result_cache) for path in files]
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _stored(
    path: str,
    index: int,
    result: FileResult | str | None,
    stat: tuple[int, int] | None,
    checked: dict[int, FileResult],
    checker: Checker,
    result_cache: cache.ResultCache | None,
) -> FileResult:
    if isinstance(result, str):
        result = FileResult(path, kind=result or None)
    result = result or checked.get(index) or check_file(checker, path)
    store(result_cache, result, stat)
    return result
