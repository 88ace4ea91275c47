"""The language server's worker processes: every check runs in one, so the server's own loop
only receives and answers.

Processes rather than threads: a check cannot be interrupted inside the parser, a process can be
killed when its job runs over the time budget or is superseded by a newer text, and the memory
a large document took returns to the system when its process exits. A few workers (`size`) run
jobs side by side, so a slow document holds one while the others keep answering; each is
started once and reused, since starting one costs the imports (a few hundred milliseconds).
"""

from __future__ import annotations

import asyncio
import pickle
import sys
from typing import Any

from .analysis import HEADER, Reply, sent_texts

# Run with the folder the server runs in off `sys.path` (`python -c` puts it first): a
# checked tree's `libcst.py` must never be imported.
_WORKER_COMMAND = "import sys\nif sys.path and sys.path[0] == '': del sys.path[0]\nfrom replaylint.server.analysis import serve\nserve()\n"
# A check superseded by a newer text is let finish (its reply dropped) this long after it
# started, then its worker is killed: a check of a file under 1,000 lines takes tens of ms.
SUPERSEDED_SECONDS = 0.5
_ALARM_GRACE_SECONDS = 5  # a worker ends itself this long after its budget, should the server not


class OverBudget(Exception):
    """A job that ran longer than its time budget (the worker was killed)."""


class OutOfMemory(Exception):
    """A job that needed more memory than a worker may take."""


class WorkerFailed(Exception):
    """A worker that ended in the middle of a job (a crash), or could not start."""


class Worker:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.sent: dict[str, tuple[int, int]] = {}  # what the texts it was last sent were (`sent_texts`)

    @classmethod
    async def start(cls) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _WORKER_COMMAND, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        return cls(process)

    async def ask(self, job: Any, seconds: float, file_budget: dict) -> Reply:
        assert self.process.stdin is not None and self.process.stdout is not None
        data = pickle.dumps((sent_texts(job, self.sent), seconds + _ALARM_GRACE_SECONDS, file_budget), pickle.HIGHEST_PROTOCOL)
        self.process.stdin.write(HEADER.pack(len(data)) + data)
        await self.process.stdin.drain()
        (length,) = HEADER.unpack(await self.process.stdout.readexactly(HEADER.size))
        return pickle.loads(await self.process.stdout.readexactly(length))  # our worker's reply

    def kill(self) -> None:
        if self.process.returncode is None:
            try:
                self.process.kill()
            except (ProcessLookupError, RuntimeError):  # ended already; the loop closed
                pass

    def ended(self) -> str:
        code = self.process.returncode
        if code is None:
            return "the worker process stopped answering"
        return f"the worker process was ended by signal {-code}" if code < 0 else f"the worker process exited with status {code}"


def _dropped(answer: asyncio.Future) -> None:
    """The reply to a superseded job, or why it has none: let go."""
    if not answer.cancelled():
        answer.exception()


class Workers:
    """At most `size` worker processes; a job has one to itself for at most `budget` seconds, and
    each file it checks the bounds of `file_budget` (`source.Budget`'s work, seconds, memory)."""

    def __init__(self, size: int, budget: float, file_budget: dict | None = None) -> None:
        self.size = size
        self.budget = budget
        self.file_budget = dict(file_budget or {})
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()
        self.starting: list[asyncio.Future] = []  # workers started ahead of the next jobs
        self.stopped = False  # the server is shutting down: no worker is started any more
        self._slots: asyncio.Semaphore | None = None  # made on the server's loop

    @property
    def slots(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        return self._slots

    async def run(self, job: Any) -> Reply:
        """The worker's reply to `job`. Raises OverBudget, OutOfMemory or WorkerFailed. A
        cancelled job (superseded by a newer text) is let finish, its reply dropped, unless
        it runs longer than SUPERSEDED_SECONDS: killing its worker costs starting another."""
        await self.slots.acquire()
        try:
            worker = await self._take()
        except BaseException:
            self.slots.release()
            raise
        self.busy.add(worker)
        loop = asyncio.get_running_loop()
        started = loop.time()
        answer = asyncio.ensure_future(self._answer(worker, job))
        try:
            return await asyncio.shield(answer)
        except asyncio.CancelledError:
            answer.add_done_callback(_dropped)
            loop.call_at(started + SUPERSEDED_SECONDS, answer.cancel)  # a no-op once it is done
            raise
        finally:
            del answer  # an exception's traceback holds this frame: a cycle that would keep the job's texts

    async def _answer(self, worker: Worker, job: Any) -> Reply:
        """`worker`'s reply to `job`; the worker's slot is free again after it."""
        try:
            try:
                reply = await asyncio.wait_for(worker.ask(job, self.budget, self.file_budget), self.budget)
            except asyncio.TimeoutError:
                self._discard(worker)
                raise OverBudget() from None
            except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError, EOFError) as error:
                self._discard(worker)
                await self._wait(worker)
                raise WorkerFailed(worker.ended()) from error
            except BaseException:  # cancelled: superseded too long ago, or the server stops
                self._discard(worker)
                raise
            self.busy.discard(worker)
            if reply.retiring:
                await self._wait(worker)
            else:
                self.idle.append(worker)
                self.spare()
            if reply.out_of_memory:
                raise OutOfMemory()
            return reply
        finally:
            self.slots.release()

    def warm(self) -> None:
        """Start a worker in the background for the next job, unless one is ready or starting
        or every worker there may be is busy."""
        if not self.stopped and not self.idle and not self.starting and len(self.busy) < self.size:
            self.starting.append(asyncio.ensure_future(self._start()))

    def spare(self) -> None:
        """Start one more worker, up to `size`, for a job that supersedes another while it runs:
        once a job is done, so that its start does not slow that job."""
        if not self.stopped and not self.starting and len(self.idle) + len(self.busy) < self.size:
            self.starting.append(asyncio.ensure_future(self._start()))

    async def _take(self) -> Worker:
        while self.idle:
            worker = self.idle.pop()
            if worker.process.returncode is None:  # not ended while it waited (the OOM killer's pick)
                return worker
        while self.starting:
            try:
                return await self.starting.pop(0)
            except WorkerFailed:
                pass
        return await self._start()

    async def _start(self) -> Worker:
        try:
            return await Worker.start()
        except OSError as error:
            raise WorkerFailed(f"the worker process could not start ({error.strerror or error})") from None

    def _discard(self, worker: Worker) -> None:
        """Kill a worker in the middle of its job, and start the next one meanwhile."""
        self.busy.discard(worker)
        worker.kill()
        self.warm()

    async def _wait(self, worker: Worker) -> None:
        try:
            await asyncio.wait_for(worker.process.wait(), 5)
        except asyncio.TimeoutError:
            worker.kill()

    def stop(self) -> list[Worker]:
        """Kill every worker (the server is shutting down); the workers killed."""
        self.stopped = True
        for starting in self.starting:
            starting.cancel()
        self.starting.clear()
        stopped = [*self.idle, *self.busy]
        for worker in stopped:
            worker.kill()
        self.idle.clear()
        self.busy.clear()
        return stopped

    async def close(self) -> None:
        """Kill every worker and wait until each has ended."""
        for worker in self.stop():
            await self._wait(worker)
