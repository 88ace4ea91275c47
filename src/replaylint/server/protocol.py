"""The language server over stdio (pygls): documents in, diagnostics and code actions out.

A document is checked when it opens and 300 ms after the last of a run of changes (the text
checked is the latest); a file other files may read (a pin file, a `--config` YAML, an env
file) re-checks every open document when it changes, opens, closes or is saved, and so does a
change on disk to a pin or configuration file the client watches. Handlers never raise: what
goes wrong is logged to the client (window/logMessage).
"""

from __future__ import annotations

import asyncio
import functools
import os
import traceback
from typing import Any, Callable, Iterable

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..config import CONFIG_NAMES
from ..model import Finding
from .actions import KINDS, Actions
from .diagnostics import diagnostic
from .positions import EditorText
from .session import Session

DEBOUNCE_SECONDS = 0.3
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
    def __init__(self) -> None:
        super().__init__("replaylint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.session = Session(self.log)
        self.timers: dict[str, asyncio.TimerHandle] = {}
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

    # checking and publishing

    def refresh(self, uris: Iterable[str]) -> None:
        """Check the documents now and publish every file whose diagnostics may have changed."""
        changed: set[str] = set()
        for uri in uris:
            timer = self.timers.pop(uri, None)
            if timer is not None:
                timer.cancel()
            if uri in self.session.documents:
                changed |= self.safely(lambda: self.session.check(uri)[1], default={uri})
        self.publish(changed)

    def schedule(self, uris: Iterable[str]) -> None:
        loop = asyncio.get_running_loop()
        for uri in uris:
            timer = self.timers.pop(uri, None)
            if timer is not None:
                timer.cancel()
            self.timers[uri] = loop.call_later(DEBOUNCE_SECONDS, self.safely, self.refresh, [uri])

    def affected(self, uri: str) -> list[str]:
        """The documents to check again when `uri` changes: itself, or every open document
        when other files may read it."""
        document = self.session.documents.get(uri)
        if document is not None and document.self_contained:
            return [uri]
        return [uri, *(other for other in self.session.documents if other != uri)]

    def publish(self, uris: Iterable[str]) -> None:
        diagnose = self.diagnose()
        for uri in sorted(uris):
            diagnostics = [diagnose(finding) for _, finding in self.session.landing_in(uri)]
            checked = self.session.checks.get(uri)
            version = checked.document.version if checked is not None and checked.text == checked.document.text else None
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def diagnose(self) -> Callable[[Finding], types.Diagnostic]:
        """Findings as diagnostics, each file's text read once."""
        texts: dict[str, EditorText] = {}

        def text_of(path: str) -> EditorText:
            if path not in texts:
                texts[path] = EditorText(self.session.checked_text(path), self.encoding)
            return texts[path]

        return lambda finding: diagnostic(finding, text_of, self.session.uri_of)

    def current(self, uri: str) -> None:
        """Check the document now when its last check saw another text (a change is pending)."""
        checked = self.session.checks.get(uri)
        document = self.session.documents.get(uri)
        if document is not None and (checked is None or checked.text != document.text):
            self.refresh([uri])

    def safely(self, function: Callable, *args: Any, default: Any = None) -> Any:
        """`function(*args)`; an exception is logged to the client, not raised."""
        try:
            return function(*args)
        except Exception:
            self.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Error, message=f"internal error (please report this): {traceback.format_exc()}"
                )
            )
            return default

    def stop_timers(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()


def guarded(default: Any) -> Callable:
    """A handler `(server, params)` that logs what goes wrong in it and returns `default`."""

    def wrap(handler: Callable) -> Callable:
        @functools.wraps(handler)
        def run(ls: ReplaylintServer, params: Any) -> Any:
            return ls.safely(handler, ls, params, default=default)

        return run

    return wrap


def build() -> ReplaylintServer:
    server = ReplaylintServer()

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
        document.text = ls.workspace.get_text_document(uri).source
        document.version = params.text_document.version
        ls.schedule(ls.affected(uri))

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
        timer = ls.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        ls.publish(ls.session.close(uri))
        ls.refresh(others)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded(None)
    def did_change_watched_files(ls: ReplaylintServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.session.forget_configurations()
        ls.refresh(list(ls.session.documents))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=list(KINDS)))
    @guarded([])
    def code_action(ls: ReplaylintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        ls.current(uri)
        return Actions(ls.session, ls.encoding).for_range(uri, params.range, params.context.only, ls.diagnose())

    @server.feature(types.SHUTDOWN)
    @guarded(None)
    def shutdown(ls: ReplaylintServer, params: Any) -> None:
        ls.stop_timers()

    return server
