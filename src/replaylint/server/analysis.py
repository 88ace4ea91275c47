"""What the language server's worker processes do: a document's check, where a suppression
comment silences a finding, and "Fix all". The server's own process only receives and answers;
this module runs in a worker (`serve`), which the server may kill when a job runs over its time
budget or is superseded, and which exits by itself once it holds more memory than it should.

A job carries what it needs: the editor's texts the check may read (the document's and those of
open files other files read, such as pins and `--config` YAMLs) and the workspace folders. A
text the worker was sent before crosses as `UNCHANGED` (`sent_texts`, `received_texts`): a job
costs what changed, not every open document. The configuration is read from disk here, as
`replaylint check` reads it, and kept until the server says it changed (`Workspace.generation`).
Files are read as `replaylint check` of the workspace reads them: only inside its repositories
(`files.trusted_roots`), the editor's texts included, so a `--config ../x.yaml` outside is not
read and no finding lands in it. A check says what it read (`Checked.reads`): the server checks
a document again only when a text it read changes.
"""

from __future__ import annotations

import dataclasses
import io
import os
import pickle
import struct
import sys
import tokenize
import traceback
from collections import Counter
from dataclasses import field
from typing import Any, BinaryIO, Iterable, Mapping

from .. import files, frontends
from ..edits import apply_edits
from ..engine.checker import Checker
from ..engine.config import Config, ConfigError, find_config_file, load
from ..engine.project import ProjectPins
from ..engine.suppression_places import suppression_edits
from ..model import Edit, Finding
from ..records import record
from ..run.apply_fixes import Document as FixedDocument, Fixer
from ..workspace.discovery import Excluder
from .warmup import warm_up

UNUSED_SUPPRESSION = "RPL901"
PLACEBO_CODE = "RPL999"  # a code no rule reports: a comment naming it suppresses nothing
MAX_READ_BYTES = 8 * 1024 * 1024  # a file findings land in, read for their positions (the default --max-file-bytes)
HEADER = struct.Struct("<Q")  # the length of the pickle that follows, on the pipes to and from a worker
# A worker that holds more than this once a job is done exits, and its memory returns to the
# system (CPython keeps the arenas a large check fragmented); the next job starts a fresh one.
RETIRE_ABOVE_BYTES = 256 * 1024 * 1024
# Over this much memory (address space) a job fails instead of taking the machine's: the
# Python frontend reports the MemoryError as a file nested too deeply to analyse (RPL900).
MEMORY_BUDGET_BYTES = 1024 * 1024 * 1024
MEMORY_ERROR = "MemoryError"

Logs = list  # [(message, "error" | "warning" | "info")]


@record(unsafe_hash=True)
class Workspace:
    """What a job sees of the editor: workspace folders, texts by path, configuration generation."""

    roots: tuple[str, ...]
    texts: Mapping[str, str]
    generation: int = 0


@record(unsafe_hash=True)
class Check:
    workspace: Workspace
    path: str


@record(unsafe_hash=True)
class Placement:
    """Where a comment silencing `finding` goes (an `Edit`), or None."""

    workspace: Workspace
    path: str
    finding: Finding
    findings: tuple[Finding, ...]  # the document's, as checked: what a comment must leave as it is


@record(unsafe_hash=True)
class FixAll:
    """`replaylint check --fix` on the document, from the editor's texts: the documents it changed."""

    workspace: Workspace
    path: str


@record
class Checked:
    """A check's findings, the texts of the other files they land in (as read for it), and the
    paths the check read or looked for (files, and folders listed for pins)."""

    findings: list[Finding]
    texts: dict[str, str] = field(default_factory=dict)
    reads: frozenset[str] = frozenset()


class _Recording(dict):
    """A dict that remembers the keys asked of it: the editor's texts a check read."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.asked: set[str] = set()

    def __contains__(self, key: object) -> bool:
        self.asked.add(key)  # type: ignore[arg-type]
        return super().__contains__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)


@record
class Reply:
    value: Any = None
    logs: Logs = field(default_factory=list)
    error: str | None = None  # a bug in replaylint, with its traceback
    retiring: bool = False  # the worker exits after this reply
    out_of_memory: bool = False


def without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


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


class Analysis:
    """A worker's state across jobs: the configurations read, until they change."""

    def __init__(self) -> None:
        self.configs: dict[str, Config] = {}  # folder: the configuration of files in it
        self.generation = 0
        self.logs: Logs = []
        self.file_budget: dict[str, float] = {}  # `Checker.budget` of every check

    def run(self, job: Check | Placement | FixAll) -> Any:
        if job.workspace.generation != self.generation:
            self.configs.clear()
            self.generation = job.workspace.generation
        if isinstance(job, Check):
            return self.check(job.workspace, job.path)
        if isinstance(job, Placement):
            return self.placement(job.workspace, job.path, job.finding, job.findings)
        return self.fixed_documents(job.workspace, job.path)

    # configuration

    def config_for(self, path: str, roots: tuple[str, ...]) -> Config:
        folder = os.path.dirname(path)
        if folder not in self.configs:
            self.configs[folder] = self._load_config(folder, roots)
        return self.configs[folder]

    def _load_config(self, folder: str, roots: tuple[str, ...]) -> Config:
        try:
            found = find_config_file(folder)
        except ConfigError as error:  # a pyproject.toml that is not TOML (a 5,000-digit integer...)
            self.logs.append((f"{error} (checking with the default settings until it is fixed)", "error"))
            return Config(root=_root_of(folder, roots))
        if found is None:
            return Config(root=_root_of(folder, roots))
        try:
            return load(found)
        except ConfigError as error:
            self.logs.append((f"{error} (checking with the default settings until it is fixed)", "error"))
            return Config(root=os.path.dirname(found))

    # checking

    def checker(self, workspace: Workspace, path: str, replaced: Mapping[str, str] | None = None) -> Checker:
        """A checker for the file `path` that reads the editor's texts (and `replaced` ones)
        instead of the disk."""
        roots = files.trusted_roots([*workspace.roots, path])
        texts = {name: without_bom(text) for name, text in {**workspace.texts, **(replaced or {})}.items() if files.inside(name, roots)}
        pins = ProjectPins(texts=texts)
        pins.texts = _Recording(pins.texts)
        checker = Checker(self.config_for(path, workspace.roots), pins, roots=roots)
        checker.budget = self.file_budget
        checker.overlay = _Recording({os.path.normpath(name): text for name, text in texts.items()})
        return checker

    def findings(
        self, workspace: Workspace, path: str, replaced: Mapping[str, str] | None = None, reads: set[str] | None = None
    ) -> list[Finding]:
        """What `replaylint check` finds in the document (its text replaced by `replaced` when
        that names it), problems of replaylint itself logged; what it read goes to `reads`."""
        config = self.config_for(path, workspace.roots)
        if _excluded(path, config):
            return []
        text = (replaced or {}).get(path, workspace.texts[path])
        checker = self.checker(workspace, path, replaced)
        result = checker.check_bytes(path, checked_bytes(text, path))
        if reads is not None:
            reads.update(os.path.abspath(read) for read in _read_by(checker))
        if result.internal_error:
            if result.internal_error.startswith(MEMORY_ERROR):
                raise MemoryError(result.internal_error)
            self.logs.append((f"internal error while checking {path}: {result.internal_error} (please report this)", "error"))
        self.logs += [(note, "warning") for note in (*result.notes, *checker.project_pins.notes)]
        return result.findings

    def check(self, workspace: Workspace, path: str) -> Checked:
        reads: set[str] = set()
        found = self.findings(workspace, path, reads=reads)
        elsewhere = {finding.span.path for finding in found} | {span.path for finding in found for span in finding.related}
        texts = {}
        for other in sorted(elsewhere - {path}):
            text = _read_text(workspace, other)
            if text is not None:
                texts[other] = text
        return Checked(found, texts, frozenset(reads))

    # code actions

    def placement(self, workspace: Workspace, path: str, finding: Finding, checked: Iterable[Finding]) -> Edit | None:
        """The first suppression comment that silences `finding` and, when it names no rule,
        leaves every finding as it was (a comment line inside a continued command would end it)."""
        text = without_bom(_read_text(workspace, finding.span.path) or "")

        def counted(found: Iterable[Finding]) -> Counter:
            # an unused suppression's message quotes the comment being edited
            return Counter((f.code, "" if f.code == UNUSED_SUPPRESSION else f.message) for f in found)

        def findings_with(edit: Edit) -> Counter:
            edited, _ = apply_edits(text, [edit])
            return counted(self.findings(workspace, path, {os.path.abspath(finding.span.path): edited}))

        before = counted(checked)
        key = (finding.code, finding.message)
        for edit in suppression_edits(finding, text, finding.code):
            after = findings_with(edit)
            if after[key] >= before[key] or after - before:
                continue
            if findings_with(Edit(edit.span, edit.content.replace(finding.code, PLACEBO_CODE))) == before:
                return edit
        return None

    def fixed_documents(self, workspace: Workspace, path: str) -> list[FixedDocument]:
        fixer = Fixer(self.checker(workspace, path), unsafe=False)
        for name, text in workspace.texts.items():
            kind = frontends.kind_for(name, text[:256].encode("utf-8", "replace"))
            if kind is not None:
                body = without_bom(text)
                fixer.documents[os.path.normpath(name)] = FixedDocument(name, kind, body, body, "utf-8", text != body)
        fixer.run([path])
        self.logs += [(failure, "warning") for failure in fixer.failures]
        return [fixed for fixed in fixer.documents.values() if fixed.changed]


def _read_by(checker: Checker) -> Iterable[str]:
    """What a check read: the editor's texts asked for, the files read from disk, and the
    files and folders the project's pins come from."""
    yield from checker.overlay.asked  # type: ignore[attr-defined]
    yield from checker.reads
    pins = checker.project_pins
    if pins is not None:
        yield from pins.texts.asked  # type: ignore[attr-defined]
        yield from pins.stamps


def _root_of(folder: str, roots: tuple[str, ...]) -> str:
    """The workspace folder holding `folder` (excludes are relative to it), else `folder`."""
    inside = [root for root in roots if folder == root or folder.startswith(root.rstrip(os.sep) + os.sep)]
    return max(inside, key=len) if inside else folder


def _excluded(path: str, config: Config) -> bool:
    """Whether the configuration excludes the file (as `--force-exclude` does)."""
    relative = os.path.relpath(path, os.path.abspath(config.root))
    if relative.startswith(os.pardir):
        relative = os.path.basename(path)
    return Excluder(config.excludes).path(relative)


def _read_text(workspace: Workspace, path: str) -> str | None:
    """A file's text: the editor's when it is open, else the disk's (a regular file, bounded)."""
    path = os.path.abspath(path)
    if path in workspace.texts:
        return workspace.texts[path]
    try:
        return files.read_regular(path, MAX_READ_BYTES).decode("utf-8", "replace")
    except files.Unreadable:
        return None


# the texts a job carries

UNCHANGED = None  # in a job's texts as it crosses: the text the worker was sent last for the path


def sent_texts(job: Any, sent: dict[str, tuple[int, int]]) -> Any:
    """`job` as it crosses to a worker that was last sent the texts `sent` describes (path:
    length and hash; a str keeps its hash, so a text costs its hashing once): each of them
    unchanged crosses as UNCHANGED. `sent` then describes this job's."""
    workspace = job.workspace
    marks = {path: (len(text), hash(text)) for path, text in workspace.texts.items()}
    texts = {path: UNCHANGED if sent.get(path) == marks[path] else text for path, text in workspace.texts.items()}
    sent.clear()
    sent.update(marks)
    return dataclasses.replace(job, workspace=dataclasses.replace(workspace, texts=texts))


def received_texts(job: Any, known: dict[str, str]) -> Any:
    """The job a worker runs: its UNCHANGED texts are those of the last job (`known`), which
    then holds this job's (a closed document's text is let go)."""
    workspace = job.workspace
    texts = {path: known[path] if text is UNCHANGED else text for path, text in workspace.texts.items()}
    known.clear()
    known.update(texts)
    return dataclasses.replace(job, workspace=dataclasses.replace(workspace, texts=texts))


# the worker process


def serve() -> None:
    """Answer jobs from stdin on stdout until the server closes the pipe; each job comes as
    `(job, seconds)`, the time after which the process ends itself should the server fail to
    (a hung server no longer reads)."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing a library prints may corrupt the replies
    _limit_memory(MEMORY_BUDGET_BYTES)
    analysis = Analysis()
    warm_up(analysis, lambda folder, path, text: analysis.run(Check(Workspace((folder,), {path: text}), path)), requests)
    known: dict[str, str] = {}
    while True:
        request = _receive(requests)
        if request is None:
            return
        job, seconds, analysis.file_budget = request
        job = received_texts(job, known)
        _alarm(seconds)
        reply = answer(analysis, job)
        _alarm(0)
        reply.retiring = reply.out_of_memory or resident_bytes() > RETIRE_ABOVE_BYTES
        _send(replies, reply)
        if reply.retiring:
            return


def answer(analysis: Analysis, job: Any) -> Reply:
    analysis.logs = []
    try:
        value = analysis.run(job)
    except MemoryError:
        return Reply(logs=analysis.logs, out_of_memory=True)
    except Exception:
        return Reply(logs=analysis.logs, error=traceback.format_exc())
    return Reply(value, analysis.logs)


def _receive(stream: BinaryIO) -> Any:
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (length,) = HEADER.unpack(header)
    return pickle.loads(stream.read(length))  # the server's own message, never a file's bytes


def _send(stream: BinaryIO, reply: Reply) -> None:
    try:
        data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
    except Exception:  # a value that cannot cross to the server is a bug, told as one
        data = pickle.dumps(Reply(logs=reply.logs, error=traceback.format_exc(), retiring=reply.retiring), pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def resident_bytes() -> int:
    """This process's resident memory (Linux), else its peak (what `getrusage` knows)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # Windows: never retired for its memory
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _limit_memory(limit: int) -> None:
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    except (ImportError, AttributeError, ValueError, OSError):
        pass  # Windows, or a system that refuses: the server's time budget still holds


def _alarm(seconds: float) -> None:
    import signal

    if hasattr(signal, "alarm"):
        signal.alarm(int(seconds + 0.999) if seconds else 0)
