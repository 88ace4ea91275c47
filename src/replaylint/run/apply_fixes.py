"""Applying fixes: edits in passes, a re-parse before anything is written, atomic writes.

`Fixer` runs the passes for a set of files (`edits.apply_edits` applies one text's edits that
do not overlap): check, apply the applicable edits, check again, until nothing changes. A
file whose fixed text no longer parses is left untouched and named. Writes keep the file's
mode, encoding (coding cookie, BOM), line endings and final newline.
"""

from __future__ import annotations

import codecs
import os
import stat
import tempfile
from dataclasses import field

from .. import frontends
from ..edits import apply_edits, with_line_endings
from ..model import Edit, Finding
from ..records import record

MAX_PASSES = 10


@record
class Document:
    """One file being fixed: its original bytes, how it was decoded, its current text."""

    path: str
    kind: str
    original: str
    text: str
    encoding: str
    bom: bool
    fixed: list[Finding] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original


@record
class FixOutcome:
    documents: dict[str, Document]
    remaining: list[Finding]
    failures: list[str]


class NotWritten(Exception):
    """Why a fixed file is left as it is, in words that follow its path."""


def write_atomically(path: str, data: bytes) -> None:
    """Replace the regular file `path` by `data` through a temporary file in the same folder,
    keeping its mode and owner; `NotWritten` when that cannot be done as the file was: it is a
    symlink or not a regular file, this user could not write it in place, or its owner or group
    cannot be kept. Renaming over a file needs only the folder's write permission, so a file
    the user may not write (a root-owned 644 file in a world-writable folder) is refused first."""
    before = os.lstat(path)
    if stat.S_ISLNK(before.st_mode):
        raise NotWritten("is a symlink (its target is left as it is)")
    if not stat.S_ISREG(before.st_mode):
        raise NotWritten("is not a regular file")
    if not before.st_mode & 0o222:  # read-only by intent, even for root
        raise NotWritten("is read-only")
    if not os.access(path, os.W_OK):
        raise NotWritten("cannot be written by this user")
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".replaylint-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            _keep_owner(stream.fileno(), before)
            os.fchmod(stream.fileno(), stat.S_IMODE(before.st_mode))
            os.fsync(stream.fileno())
        if os.lstat(path).st_ino != before.st_ino:
            raise NotWritten("changed while it was being fixed")
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def _keep_owner(descriptor: int, before: os.stat_result) -> None:
    status = os.fstat(descriptor)
    if (status.st_uid, status.st_gid) == (before.st_uid, before.st_gid) or not hasattr(os, "fchown"):
        return
    try:
        os.fchown(descriptor, before.st_uid, before.st_gid)
    except PermissionError:
        raise NotWritten("belongs to another user or group, which a rewrite would not keep") from None


_BOMS = {
    "utf-8": codecs.BOM_UTF8,
    "utf-16-le": codecs.BOM_UTF16_LE,
    "utf-16-be": codecs.BOM_UTF16_BE,
    "utf-32-le": codecs.BOM_UTF32_LE,
    "utf-32-be": codecs.BOM_UTF32_BE,
}


def encode(document: Document) -> bytes:
    errors = "surrogateescape" if document.encoding == "utf-8" or not document.encoding.startswith("utf-") else "strict"
    data = document.text.encode(document.encoding, errors)
    return (_BOMS.get(document.encoding, b"") + data) if document.bom else data


def parses(document: Document) -> bool:
    module = frontends.load(document.kind)
    check = getattr(module, "parses", None)
    return check is None or bool(check(document.text))


class Fixer:
    """Fixes a set of files with one checker; nothing is written until `write`, and then only
    files inside `roots` (real paths: the folders checked, the files named), so a fix that
    lands in a file a launch only names (`--config ../../elsewhere.yaml`) is not written."""

    def __init__(self, checker, unsafe: bool, roots: tuple[str, ...] | None = None) -> None:  # checker: api.Checker
        self.checker = checker
        self.unsafe = unsafe
        self.roots = roots
        self.fixable = checker.config.fixable_codes()
        self.documents: dict[str, Document] = {}
        self.failures: list[str] = []

    def document(self, path: str) -> Document | None:
        key = os.path.normpath(path)
        if key in self.documents:
            return self.documents[key]
        from .. import files

        try:
            data = files.read_regular(path, self.checker.config.max_file_bytes)
        except files.Unreadable as error:
            self.failures.append(f"{path}: cannot be fixed, it {error.reason}")
            return None
        return self.adopt(path, data)

    def adopt(self, path: str, data: bytes) -> Document | None:
        """Take `data` as the text of `path` (stdin's, under the name it was given)."""
        from ..engine.checker import decode

        kind = frontends.kind_for(path, data[:256])
        if kind is None:
            return None
        try:
            decoded = decode(data, kind)
        except (UnicodeError, SyntaxError, LookupError) as error:
            self.failures.append(f"{path}: cannot be fixed ({error})")
            return None
        document = Document(path, kind, decoded.text, decoded.text, decoded.encoding, decoded.bom)
        self.documents[os.path.normpath(path)] = document
        return document

    def _applicable(self, finding: Finding) -> bool:
        from ..report import applicable

        return finding.code in self.fixable and applicable(finding, self.unsafe)

    def run(self, paths: list[str]) -> None:
        """Fix `paths` (the files with fixable findings) in passes until nothing changes."""
        queue = [path for path in paths if self.document(path) is not None]
        seen: set[tuple[str, str]] = set()
        for _ in range(MAX_PASSES):
            progress = False
            for path in queue:
                document = self.documents[os.path.normpath(path)]
                if (document.path, document.text) in seen:
                    continue
                seen.add((document.path, document.text))
                progress |= self._pass(document)
            if not progress:
                break
        for document in self.documents.values():
            if document.changed and not parses(document) and parses(Document(**{**vars(document), "text": document.original})):
                self.failures.append(f"{document.path}: not fixed, the fixed text would not parse (please report this)")
                document.text = document.original
                document.fixed.clear()

    def _pass(self, document: Document) -> bool:
        self.checker.overlay.update({key: doc.text for key, doc in self.documents.items()})
        result = self.checker.check_text(document.path, document.text, document.kind)
        chosen = [finding for finding in result.findings if self._applicable(finding)]
        if not chosen:
            return False
        by_path: dict[str, list[Edit]] = {}
        for finding in chosen:
            for edit in finding.edits:
                by_path.setdefault(os.path.normpath(edit.span.path), []).append(edit)
        applied_any = False
        for key, edits in by_path.items():
            target = self.documents.get(key) or self.document(edits[0].span.path)
            if target is None:
                continue
            edits = [Edit(edit.span, with_line_endings(edit.content, target.text)) for edit in edits]
            new_text, skipped = apply_edits(target.text, edits)
            if new_text != target.text:
                target.text = new_text
                applied_any = True
            skipped_spans = {edit.span for edit in skipped}
            target.fixed.extend(
                f
                for f in chosen
                if f.edits and not any(e.span in skipped_spans for e in f.edits) and os.path.normpath(f.edits[0].span.path) == key
            )
        return applied_any

    def write(self) -> list[str]:
        """Write every changed file; return the paths written."""
        written = []
        for document in self.documents.values():
            if not document.changed:
                continue
            try:
                if not self.inside_roots(document.path):
                    raise NotWritten("is outside the checked files and folders")
                write_atomically(document.path, encode(document))
            except NotWritten as refused:
                self.failures.append(f"{document.path}: not fixed, it {refused}")
                continue
            except OSError as error:
                self.failures.append(f"{document.path}: not fixed, cannot write ({error.strerror or error})")
                continue
            written.append(document.path)
        return written

    def inside_roots(self, path: str) -> bool:
        from ..files import inside

        return self.roots is None or inside(path, self.roots)

    @property
    def fixed_count(self) -> int:
        return sum(len(document.fixed) for document in self.documents.values())
