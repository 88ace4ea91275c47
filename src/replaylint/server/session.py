"""The server's view of the workspace: the open documents, their configurations, their checks.

A document is checked as `replaylint check FILE` checks it, but from the editor's text: the
configuration is the nearest one above the file (read from disk, as the command line reads it),
the project's vLLM pins come from open pin files before the disk, and a file a launch reads
(a `--config` YAML, an env file) is read from the editor when it is open there. A finding may
land in another file than the one checked (the `--config` YAML of a shell launch): each file's
diagnostics are the findings of every open document that land in it.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from pygls.uris import from_fs_path, to_fs_path

from .. import files, frontends
from ..api import Checker
from ..config import Config, ConfigError, find_config_file, load
from ..discovery import Excluder
from ..model import Finding, LaunchKind
from ..project import ProjectPins

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024  # a file on disk read for a check (the default --max-file-bytes)

# A document that is not a file on disk (an unsaved new buffer) is checked under its own name
# in the workspace, with the suffix of its frontend when the name gives none: the editor's
# language identifier decides.
SUFFIXES_BY_LANGUAGE = {"python": ".py", "shellscript": ".sh", "dockerfile": ".dockerfile", "yaml": ".yaml", "toml": ".toml"}
# Files no other file reads: a change to one of them changes only its own findings.
SELF_CONTAINED_KINDS = ("python", "shell", "dockerfile")

Log = Callable[[str, str], None]  # (message, "error" | "warning" | "info")


@dataclass
class Document:
    """An open document: the path it is checked under, the editor's text and version."""

    uri: str
    path: str
    text: str
    version: int | None = None

    @property
    def kind(self) -> str | None:
        return frontends.kind_for(self.path, self.text[:256].encode("utf-8", "replace"))

    @property
    def self_contained(self) -> bool:
        return self.kind in SELF_CONTAINED_KINDS


@dataclass
class Checked:
    """A document's last check: the text it saw and what it found (in any file)."""

    document: Document
    text: str
    findings: list[Finding] = field(default_factory=list)
    memo: dict = field(default_factory=dict)  # code actions worked out for this check

    def targets(self, uri_of: Callable[[str], str]) -> set[str]:
        return {self.document.uri} | {uri_of(finding.span.path) for finding in self.findings}


def checked_bytes(text: str, path: str) -> bytes:
    """The bytes `replaylint check` would read for the editor's text: UTF-8, or a Python
    file's declared encoding (a `# -*- coding: latin-1 -*-` file is decoded as latin-1)."""
    data = text.encode("utf-8", "replace")
    if frontends.kind_for(path, data[:256]) != "python":
        return data
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data if encoding in ("utf-8", "utf-8-sig") else text.encode(encoding)
    except (SyntaxError, UnicodeError, LookupError):
        return data  # the check reports what is wrong with the declaration


def without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def merged(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per (code, place, message), as the command line reports a run over several
    files; a vLLM config file's own verdict yields to a launch that reads it (the launch knows
    the release it runs on)."""
    findings = list(findings)
    standalone = [f.launch is not None and f.launch.kind is LaunchKind.VLLM_CONFIG for f in findings]
    from_launches = {(f.code, f.span) for f, alone in zip(findings, standalone) if not alone}
    seen, kept = set(), []
    for finding, alone in zip(findings, standalone):
        key = (finding.code, finding.span, finding.message)
        if key in seen or (alone and (finding.code, finding.span) in from_launches):
            continue
        seen.add(key)
        kept.append(finding)
    return sorted(kept, key=lambda f: (f.span.start, f.span.end, f.code))


class Session:
    """Open documents, the configurations that govern them, and their last checks."""

    def __init__(self, log: Log, roots: Iterable[str] = ()) -> None:
        self.log = log
        self.roots = [os.path.abspath(root) for root in roots]
        self.documents: dict[str, Document] = {}
        self.checks: dict[str, Checked] = {}
        self.configs: dict[str, Config] = {}  # folder: the configuration of files in it
        self.logged: set[str] = set()

    # documents

    def open(self, uri: str, text: str, version: int | None, language: str = "") -> Document:
        document = Document(uri, self.path_for(uri, language), text, version)
        self.documents[uri] = document
        return document

    def path_for(self, uri: str, language: str) -> str:
        path = to_fs_path(uri)
        if path is not None:
            return os.path.abspath(path)
        base = self.roots[0] if self.roots else os.getcwd()
        name = re.sub(r"[^\w.-]+", "-", uri.rstrip("/").rsplit("/", 1)[-1].split(":")[-1]) or "untitled"
        if frontends.kind_for(name) is None:
            name += SUFFIXES_BY_LANGUAGE.get(language, "")
        return os.path.join(base, name)

    def close(self, uri: str) -> set[str]:
        """Forget a document; the files whose diagnostics change (its own among them)."""
        self.documents.pop(uri, None)
        checked = self.checks.pop(uri, None)
        return checked.targets(self.uri_of) if checked else {uri}

    def uri_of(self, path: str) -> str:
        for document in self.documents.values():
            if document.path == path or document.path == os.path.abspath(path):
                return document.uri
        return from_fs_path(os.path.abspath(path)) or path

    def text_of(self, path: str) -> str | None:
        """A file's text: the editor's when it is open, else the disk's."""
        for document in self.documents.values():
            if document.path == os.path.abspath(path):
                return document.text
        try:
            return files.read_regular(path, MAX_DOCUMENT_BYTES).decode("utf-8", "replace")
        except files.Unreadable:
            return None

    def checked_text(self, path: str) -> str:
        """The text the spans of findings in `path` count in: its document's last checked text,
        else the editor's or the disk's."""
        for checked in self.checks.values():
            if checked.document.path == os.path.abspath(path):
                return checked.text
        return self.text_of(path) or ""

    # configuration

    def config_for(self, path: str) -> Config:
        folder = os.path.dirname(path)
        if folder not in self.configs:
            self.configs[folder] = self._load_config(folder)
        return self.configs[folder]

    def forget_configurations(self) -> None:
        self.configs.clear()

    def _load_config(self, folder: str) -> Config:
        found = find_config_file(folder)
        if found is None:
            return Config(root=self._root_of(folder))
        try:
            return load(found)
        except ConfigError as error:
            self.log_once(f"{error} (checking with the default settings until it is fixed)", "error")
            return Config(root=os.path.dirname(found))

    def _root_of(self, folder: str) -> str:
        """The workspace folder holding `folder` (excludes are relative to it), else `folder`."""
        inside = [root for root in self.roots if folder == root or folder.startswith(root.rstrip(os.sep) + os.sep)]
        return max(inside, key=len) if inside else folder

    def excluded(self, path: str, config: Config) -> bool:
        """Whether the configuration excludes the file (as `--force-exclude` does)."""
        relative = os.path.relpath(path, os.path.abspath(config.root))
        if relative.startswith(os.pardir):
            relative = os.path.basename(path)
        return Excluder(config.excludes).path(relative)

    # checking

    def checker(self, path: str, replaced: Mapping[str, str] | None = None) -> Checker:
        """A checker for the file `path` that reads open documents (and `replaced` texts, by
        path) instead of the disk."""
        texts = {document.path: without_bom(document.text) for document in self.documents.values()}
        texts.update({path: without_bom(text) for path, text in (replaced or {}).items()})
        pins = ProjectPins(texts=texts)
        checker = Checker(self.config_for(path), pins)
        checker.overlay.update({os.path.normpath(path): text for path, text in texts.items()})
        return checker

    def findings(self, document: Document, replaced: Mapping[str, str] | None = None) -> list[Finding]:
        """What `replaylint check` finds in the document (its text replaced by `replaced` when
        that names it), problems of replaylint itself logged."""
        text = (replaced or {}).get(document.path, document.text)
        if self.excluded(document.path, self.config_for(document.path)):
            return []
        checker = self.checker(document.path, replaced)
        result = checker.check_bytes(document.path, checked_bytes(text, document.path))
        if result.internal_error:
            self.log(f"internal error while checking {document.path}: {result.internal_error} (please report this)", "error")
        for note in (*result.notes, *checker.project_pins.notes):
            self.log_once(note, "warning")
        return result.findings

    def check(self, uri: str) -> tuple[Checked, set[str]]:
        """Check an open document; its check and the files whose diagnostics may change."""
        document = self.documents[uri]
        before = self.checks.get(uri)
        checked = Checked(document, document.text, self.findings(document))
        self.checks[uri] = checked
        changed = checked.targets(self.uri_of)
        return checked, changed | (before.targets(self.uri_of) if before else set())

    def current(self, uri: str) -> Checked | None:
        """The document's check of its current text, checking it again when it is stale."""
        document = self.documents.get(uri)
        if document is None:
            return None
        checked = self.checks.get(uri)
        return checked if checked is not None and checked.text == document.text else self.check(uri)[0]

    def landing_in(self, uri: str) -> list[tuple[Checked, Finding]]:
        """Every open document's findings that land in the file `uri`, merged."""
        found = [
            (checked, finding) for checked in self.checks.values() for finding in checked.findings if self.uri_of(finding.span.path) == uri
        ]
        chosen = {id(finding) for finding in merged(finding for _, finding in found)}
        return sorted(((c, f) for c, f in found if id(f) in chosen), key=lambda pair: (pair[1].span.start, pair[1].code))

    def log_once(self, message: str, level: str) -> None:
        if message not in self.logged:
            self.logged.add(message)
            self.log(message, level)
