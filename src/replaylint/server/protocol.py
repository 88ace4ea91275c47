"""The language server over stdio (pygls): documents in, diagnostics and code actions out.

The server's loop only receives and answers: every check runs in a worker process (`workers`),
so a costly document never delays the answers about another. A document is checked when it
opens and as soon as it changes, with no delay: a change supersedes the check of the older
text, whose result is dropped (its worker is let finish a short check, and killed if it runs
on, `workers.SUPERSEDED_SECONDS`), so only the newest text's diagnostics are published. A
check that runs over the time budget is ended and reported as RPL900 (the file was not fully
analysed). A file other files may read (a pin file, a `--config` YAML, an env file) re-checks
every open document when it changes, opens, closes or is saved, and so does a change on disk to
a pin or configuration file the client watches. Handlers never raise: what goes wrong is logged to the client (window/logMessage).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import traceback
from typing import Any, Callable, Iterable
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..engine.config import CONFIG_NAMES
from ..model import Finding, Message, Span
from ..rules import INCOMPLETE_ANALYSIS
from .actions import KINDS, Actions
from .analysis import MEMORY_BUDGET_BYTES, Check
from .diagnostics import diagnostic
from .positions import EditorText
from .session import Checked, Document, Session
from .workers import OutOfMemory, OverBudget, WorkerFailed, Workers

TIME_BUDGET_SECONDS = 10.0  # for one job: a check, or the checks behind one code action
WORKERS = 2  # jobs that run side by side: a slow document holds one worker, not the server
# Files whose change on disk changes verdicts: configuration files and vLLM pins.
WATCHED = (
    "**/pyproject.toml",
    "**/replaylint.toml",
    "**/.replaylint.toml",
    "**/*requirements*.txt",
    "**/requirements/*.txt",
    "**/requirements*.lock",
    "**/uv.lock",
    "**/poetry.lock",
    "**/pylock*.toml",
)
_LEVELS = {"error": types.MessageType.Error, "warning": types.MessageType.Warning, "info": types.MessageType.Info}


class ReplaylintServer(LanguageServer):
    def __init__(self, time_budget: float = TIME_BUDGET_SECONDS, workers: int = WORKERS, file_budget: dict | None = None) -> None:
        super().__init__("replaylint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.session = Session(self.log)
        # A check ends by itself (RPL902) a little before the worker would be killed for it.
        self.workers = Workers(workers, time_budget, file_budget if file_budget is not None else {"seconds": time_budget * 0.8})
        self.checking: dict[str, tuple[str, asyncio.Task]] = {}  # uri: the text being checked, and its check
        self.shown: set[str] = set()

    @property
    def encoding(self) -> str:
        return str(getattr(self.workspace.position_encoding, "value", self.workspace.position_encoding) or "utf-16")

    def log(self, message: str, level: str) -> None:
        """Log to the client; an error is also shown, once."""
        self.window_log_message(types.LogMessageParams(type=_LEVELS.get(level, types.MessageType.Log), message=message))
        if level == "error" and message not in self.shown:
            self.shown.add(message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"replaylint: {message}"))

    def log_internal_error(self, details: str) -> None:
        self.window_log_message(
            types.LogMessageParams(type=types.MessageType.Error, message=f"internal error (please report this): {details}")
        )

    # checking and publishing

    def refresh(self, uris: Iterable[str]) -> None:
        """Check the documents now; each publishes the files whose diagnostics may change when
        its check is done."""
        for uri in uris:
            if uri in self.session.documents:
                self.start_check(uri)

    def start_check(self, uri: str) -> asyncio.Task:
        """Check an open document's text now, superseding the check of its older text."""
        self.stop_check(uri)
        document = self.session.documents[uri]
        task = asyncio.ensure_future(self.check(document, document.text, self.session.check_job(uri)))
        self.checking[uri] = (document.text, task)
        return task

    def stop_check(self, uri: str) -> None:
        running = self.checking.pop(uri, None)
        if running is not None:
            running[1].cancel()  # its result is dropped

    async def check(self, document: Document, text: str, job: Check) -> Checked | None:
        """The document's check of `text`, kept and published; None when the text changed meanwhile."""
        try:
            findings, texts, reads = [], {}, frozenset()
            if document.kind is not None:
                outcome, unfinished = await self.analyse(job)
                if unfinished is not None:
                    findings = [not_fully_analysed(document.path, unfinished)]
                elif outcome is not None:
                    findings, texts, reads = outcome.findings, outcome.texts, outcome.reads
            if self.session.documents.get(document.uri) is not document or document.text != text:
                return None
            checked = Checked(document, text, document.version, findings, texts, reads)
            self.publish(self.session.store(checked))
            return checked
        except Exception:
            self.log_internal_error(traceback.format_exc())
            return None
        finally:
            if self.checking.get(document.uri, (None, None))[1] is asyncio.current_task():
                del self.checking[document.uri]

    async def analyse(self, job: Any) -> tuple[Any, str | None]:
        """A worker's answer to `job` (None after an internal error, which is logged), and why
        the job did not finish, if it did not ("took longer than ...")."""
        try:
            reply = await self.workers.run(job)
        except OverBudget:
            return None, f"took longer than the language server's time budget ({self.workers.budget:g} s)"
        except OutOfMemory:
            return None, f"needed more than the language server's memory budget ({MEMORY_BUDGET_BYTES >> 20} MiB)"
        except WorkerFailed as failure:
            self.log(f"checking {job.path} failed: {failure} (please report this)", "error")
            return None, f"failed ({failure})"
        for message, level in reply.logs:
            self.session.log_once(message, level)
        if reply.error is not None:
            self.log_internal_error(reply.error)
        return reply.value, None

    async def value_of(self, job: Any) -> Any:
        """What a code action's job answers, or None when it did not finish."""
        value, unfinished = await self.analyse(job)
        if unfinished is not None:
            self.log(f"a code action for {job.path} is not offered: working it out {unfinished}", "info")
        return value

    async def current(self, uri: str) -> Checked | None:
        """The document's check of its current text: the last one, the one running, or a new one."""
        for _ in range(3):  # a check superseded while waiting: wait for the next one
            document = self.session.documents.get(uri)
            if document is None:
                return None
            checked = self.session.checks.get(uri)
            if checked is not None and checked.current:
                return checked
            running = self.checking.get(uri)
            task = running[1] if running is not None and running[0] == document.text else self.start_check(uri)
            try:
                result = await asyncio.shield(task)
            except asyncio.CancelledError:
                if not task.cancelled():
                    raise  # the request itself was cancelled
                continue
            if result is not None:
                return result
        return self.session.checks.get(uri)

    def affected(self, uri: str) -> list[str]:
        """The documents to check again when `uri` changes: itself, and, when other files may
        read it, those whose last check read it (or listed its folder) and those whose check
        of a reader's text is running (it may have started without this text)."""
        document = self.session.documents.get(uri)
        if document is None or document.self_contained:
            return [uri]
        running = [other for other in self.checking if other != uri and other not in self.session.checks]
        readers = [other for other in running if getattr(self.session.documents.get(other), "self_contained", False)]
        return list(dict.fromkeys([uri, *self.session.readers(uri), *readers]))

    def publish(self, uris: Iterable[str]) -> None:
        """Publish the diagnostics of files; an open document whose text changed since its last
        check waits for its next one (diagnostics of an older text are never published)."""
        diagnose = self.diagnose()
        for uri in sorted(uris):
            checked = self.session.checks.get(uri)
            if checked is not None and not checked.current:
                continue
            diagnostics = [diagnose(finding) for _, finding in self.session.landing_in(uri)]
            version = checked.version if checked is not None else None
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def diagnose(self) -> Callable[[Finding], types.Diagnostic]:
        """Findings as diagnostics, each file's text read once."""
        texts: dict[str, EditorText] = {}

        def text_of(path: str) -> EditorText:
            if path not in texts:
                texts[path] = EditorText(self.session.checked_text(path), self.encoding)
            return texts[path]

        return lambda finding: diagnostic(finding, text_of, self.session.uri_of)

    def safely(self, function: Callable, *args: Any, default: Any = None) -> Any:
        """`function(*args)`; an exception is logged to the client, not raised."""
        try:
            return function(*args)
        except Exception:
            self.log_internal_error(traceback.format_exc())
            return default

    async def stop(self) -> None:
        """End every pending and running check, and the workers."""
        for uri in list(self.checking):
            self.stop_check(uri)
        await self.workers.close()


def return_freed_memory() -> None:
    """Hand the heap a closed document's text and findings freed back to the system: glibc
    keeps it otherwise (a 4.7 MB document left 11 MB behind), where `malloc_trim` exists."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=None)
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        import ctypes

        return ctypes.CDLL(None).malloc_trim  # the process's own libc
    except (ImportError, OSError, AttributeError, TypeError):
        return None  # not glibc: its allocator decides


def not_fully_analysed(path: str, why: str) -> Finding:
    code, name, _ = INCOMPLETE_ANALYSIS
    return Finding(code, name, Message("file not fully analysed", f"checking it {why}"), Span(path, 1, 1, 1, 1, 0, 0), "error")


def guarded(default: Any) -> Callable:
    """A handler `(server, params)` that logs what goes wrong in it and returns `default`."""

    def wrap(handler: Callable) -> Callable:
        if inspect.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def run_async(ls: ReplaylintServer, params: Any) -> Any:
                try:
                    return await handler(ls, params)
                except Exception:
                    ls.log_internal_error(traceback.format_exc())
                    return default

            return run_async

        @functools.wraps(handler)
        def run(ls: ReplaylintServer, params: Any) -> Any:
            return ls.safely(handler, ls, params, default=default)

        return run

    return wrap


def build(time_budget: float = TIME_BUDGET_SECONDS, workers: int = WORKERS, file_budget: dict | None = None) -> ReplaylintServer:
    """The server; `file_budget` bounds each file's `source.Budget` (work, seconds, memory)."""
    server = ReplaylintServer(time_budget, workers, file_budget)

    @server.feature(types.INITIALIZE)
    @guarded(None)
    def initialize(ls: ReplaylintServer, params: types.InitializeParams) -> None:
        folders = [folder.uri for folder in params.workspace_folders or []] or [params.root_uri or ""]
        ls.session.roots = [path for path in (to_fs_path(uri) for uri in folders if uri) if path]

    @server.feature(types.INITIALIZED)
    @guarded(None)
    def initialized(ls: ReplaylintServer, params: types.InitializedParams) -> None:
        watching = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if watching and watching.dynamic_registration:
            options = types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]
            )
            registration = types.Registration(
                id="replaylint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
            )
            ls.client_register_capability(types.RegistrationParams(registrations=[registration]))
        ls.workers.warm()  # the first check need not wait for a process to start
        _malloc_trim()  # loaded before any document is: what it loads is not counted against one

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded(None)
    def did_open(ls: ReplaylintServer, params: types.DidOpenTextDocumentParams) -> None:
        opened = params.text_document
        ls.session.open(opened.uri, opened.text, opened.version, opened.language_id)
        ls.refresh(ls.affected(opened.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(None)
    def did_change(ls: ReplaylintServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = ls.session.documents.get(uri)
        if document is None:
            return
        held = ls.workspace.text_documents.get(unquote(uri))  # pygls applied the change (never read from disk)
        if held is None:
            return
        document.text = held.source
        document.version = params.text_document.version
        ls.refresh(ls.affected(uri))  # their text or what they read changed

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded(None)
    def did_save(ls: ReplaylintServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = ls.session.documents.get(uri)
        if document is not None and os.path.basename(document.path) in CONFIG_NAMES:
            ls.session.forget_configurations()
            ls.refresh(list(ls.session.documents))
        elif document is not None and not document.self_contained:
            ls.refresh(ls.affected(uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(None)
    def did_close(ls: ReplaylintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        others = [other for other in ls.affected(uri) if other != uri]
        ls.stop_check(uri)
        ls.publish(ls.session.close(uri))
        ls.refresh(others)
        return_freed_memory()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded(None)
    def did_change_watched_files(ls: ReplaylintServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.session.forget_configurations()
        ls.refresh(list(ls.session.documents))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=list(KINDS)))
    @guarded([])
    async def code_action(ls: ReplaylintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        checked = await ls.current(uri)
        actions = Actions(ls.session, ls.encoding, ls.value_of)
        return await actions.for_range(uri, checked, params.range, params.context.only, ls.diagnose())

    @server.feature(types.SHUTDOWN)
    @guarded(None)
    async def shutdown(ls: ReplaylintServer, params: Any) -> None:
        await ls.stop()

    return server
