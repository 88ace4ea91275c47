"""The server's view of the workspace: the open documents and their last checks.

A document is checked as `replaylint check FILE` checks it, but from the editor's text (the
check runs in a worker process, `analysis`): the configuration is the nearest one above the
file, the project's vLLM pins come from open pin files before the disk, and a file a launch
reads (a `--config` YAML, an env file) is read from the editor when it is open there. A finding
may land in another file than the one checked (the `--config` YAML of a shell launch): each
file's diagnostics are the findings of every open document that land in it. Nothing here reads
the disk: the texts findings land in come with the check.
"""

from __future__ import annotations

import os
import re
from dataclasses import field
from typing import Callable, Iterable

from pygls.uris import from_fs_path, to_fs_path

from .. import frontends
from ..model import Finding, LaunchKind
from ..records import record
from .analysis import Check, FixAll, Placement, Workspace

# A document that is not a file on disk (an unsaved new buffer) is checked under its own name
# in the workspace, with the suffix of its frontend when the name gives none: the editor's
# language identifier decides.
SUFFIXES_BY_LANGUAGE = {
    "python": ".py",
    "shellscript": ".sh",
    "dockerfile": ".dockerfile",
    "yaml": ".yaml",
    "toml": ".toml",
    "json": ".json",
}
# Files no other file reads: a change to one of them changes only its own findings.
SELF_CONTAINED_KINDS = ("python", "shell", "dockerfile")

Log = Callable[[str, str], None]  # (message, "error" | "warning" | "info")


@record
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


@record
class Checked:
    """A document's last check: the text and version it saw, what it found (in any file), and
    the texts of the other files its findings land in."""

    document: Document
    text: str
    version: int | None
    findings: list[Finding] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    reads: frozenset[str] = frozenset()  # the paths the check read or looked for
    memo: dict = field(default_factory=dict)  # code actions worked out for this check

    @property
    def current(self) -> bool:
        return self.text is self.document.text or self.text == self.document.text

    def targets(self, uri_of: Callable[[str], str]) -> set[str]:
        return {self.document.uri} | {uri_of(finding.span.path) for finding in self.findings}


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
    """Open documents and their last checks."""

    def __init__(self, log: Log, roots: Iterable[str] = ()) -> None:
        self.log = log
        self.roots = [os.path.abspath(root) for root in roots]
        self.documents: dict[str, Document] = {}
        self.checks: dict[str, Checked] = {}
        self.generation = 0  # of the configurations on disk: a worker reads them again when it changes
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
        """Forget a document and all it held; the files whose diagnostics change (its own among them)."""
        self.documents.pop(uri, None)
        checked = self.checks.pop(uri, None)
        return checked.targets(self.uri_of) if checked else {uri}

    def uri_of(self, path: str) -> str:
        for document in self.documents.values():
            if document.path == path or document.path == os.path.abspath(path):
                return document.uri
        return from_fs_path(os.path.abspath(path)) or path

    def checked_text(self, path: str) -> str:
        """The text the spans of findings in `path` count in: its document's last checked text,
        else the text a check whose findings land there read, else the editor's."""
        path = os.path.abspath(path)
        for checked in self.checks.values():
            if checked.document.path == path:
                return checked.text
        for checked in self.checks.values():
            if path in checked.texts:
                return checked.texts[path]
        for document in self.documents.values():
            if document.path == path:
                return document.text
        return ""

    def forget_configurations(self) -> None:
        self.generation += 1

    # jobs for the workers

    def workspace(self, document: Document, text: str | None = None) -> Workspace:
        """What a check of `document` (of `text`, else its current text) may read of the
        editor: its text, and those of the open files other files read (a check never reads a
        Python file, a shell script or a Dockerfile other than its own)."""
        texts = {other.path: other.text for other in self.documents.values() if not other.self_contained}
        texts[document.path] = document.text if text is None else text
        return Workspace(tuple(self.roots), texts, self.generation)

    def check_job(self, uri: str) -> Check:
        document = self.documents[uri]
        return Check(self.workspace(document), document.path)

    def placement_job(self, checked: Checked, finding: Finding) -> Placement:
        return Placement(self.workspace(checked.document, checked.text), checked.document.path, finding, tuple(checked.findings))

    def fix_all_job(self, checked: Checked) -> FixAll:
        return FixAll(self.workspace(checked.document, checked.text), checked.document.path)

    def store(self, checked: Checked) -> set[str]:
        """Keep a document's check; the files whose diagnostics may change."""
        uri = checked.document.uri
        before = self.checks.get(uri)
        self.checks[uri] = checked
        return checked.targets(self.uri_of) | (before.targets(self.uri_of) if before else set())

    def landing_in(self, uri: str) -> list[tuple[Checked, Finding]]:
        """Every open document's findings that land in the file `uri`, merged."""
        found = [
            (checked, finding) for checked in self.checks.values() for finding in checked.findings if self.uri_of(finding.span.path) == uri
        ]
        chosen = {id(finding) for finding in merged(finding for _, finding in found)}
        return sorted(((c, f) for c, f in found if id(f) in chosen), key=lambda pair: (pair[1].span.start, pair[1].code))

    def readers(self, uri: str) -> list[str]:
        """The other open documents whose last check read the file `uri` or listed its folder
        (a pin file opened there may be read now): those a change of its text may change."""
        document = self.documents.get(uri)
        if document is None:
            return []
        path, folder = document.path, os.path.dirname(document.path)
        return [other for other, checked in self.checks.items() if other != uri and (path in checked.reads or folder in checked.reads)]

    def log_once(self, message: str, level: str) -> None:
        if message not in self.logged:
            self.logged.add(message)
            self.log(message, level)
