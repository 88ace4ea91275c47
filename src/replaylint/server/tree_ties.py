"""A document's clients judged with the replay servers other files of its tree start, and its
servers with their clients, as `replaylint check` of the tree judges them (`run.cross_file`).

Run only for a document that holds a replay server, an HTTP client or a read of the masks'
route (most documents hold none, and pay nothing). The tree is the repository holding the
document (else the workspace folder holding it, else its folder), walked as `check` walks it
(its excludes, `.gitignore`), at most `MAX_TREE_FILES` files. Each file's text is the editor's
when it is open there, else the disk's; what a file says of servers and clients
(`served.Served`) is kept by the worker while the file keeps its stat (an editor's text: while
it keeps that text), so an edit reads again only what changed. Files read afresh get
`FRESH_READ_SECONDS` a job: a tree not read whole by then gives no tie this time (a server
unread could share the port, and which one a client reaches is then not known); the worker goes
on where it stopped at the next check. The result cache is neither read nor written.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Mapping

from .. import files, frontends

if TYPE_CHECKING:
    from ..engine.checker import Checker, FileResult
    from ..engine.config import Config
    from ..served import Served

MAX_TREE_FILES = 20_000  # listed in a tree: beyond, the tree is not read for ties
FRESH_READ_SECONDS = 2.0  # of reading files not yet known, in one job
LISTING_SECONDS = 5.0  # a tree's listing is walked again after this long (new files)
_KINDS = ("python", "shell", "dockerfile", "yaml", "toml", "json")


@dataclass
class TreeFacts:
    """What a worker remembers of the trees its documents lie in, across jobs."""

    # path: (its stat or text, what it says, the stat or text of each file read for it)
    served: dict[str, tuple[object, Served | None, tuple[tuple[str, object], ...]]] = field(default_factory=dict)
    listings: dict[str, tuple[float, list[str] | None]] = field(default_factory=dict)  # tree: (when walked, its files)

    def forget(self) -> None:
        self.served.clear()
        self.listings.clear()


@dataclass(frozen=True)
class Part:
    """A document's part in ties: whether it holds a server or a client, and whether its tree
    was left unread this time (the job's time for fresh reads ran out: check it again)."""

    takes_part: bool
    tree_unread: bool = False
    read: frozenset[str] = frozenset()  # the files the tree's facts were read from (a trainer's `--config` YAML)


class _OutOfTime(Exception):
    pass


def tie_document(
    checker: Checker,
    result: FileResult,
    data: bytes,
    texts: Mapping[str, str],
    roots: tuple[str, ...],
    config_for: Callable[[str], Config],
    facts: TreeFacts,
) -> Part:
    """Add to `result` (the document's check) the findings on its clients of servers other files
    of its tree start, and those on the clients of its servers in files not open; whether the
    document takes part in ties (holds a server or a client): not, and nothing added, for most
    documents."""
    from ..run.cross_file import tie_clients

    path = result.path
    if result.served is None:  # turned away by the prefilter: it may still hold a client
        result.served = _clients_of(checker, path, data)
    if not result.served:
        return Part(False)
    own = checker.config
    try:
        others = _others(checker, path, texts, *tree_of(path, roots), config_for, facts)
        if others is not None:
            checker.config = own
            tie_clients(checker, [result, *others], None)
            # At clients of files not open, as `check` of the server's file alone reports them
            # (an open file's own check has them).
            result.findings += [finding for other in others if other.path not in texts for finding in other.findings]
            return Part(True, read=frozenset(read for other in others for read, _ in facts.served[other.path][2]))
    except _OutOfTime:
        return Part(True, tree_unread=True)
    finally:
        checker.config = own
    return Part(True)


def _others(
    checker: Checker, path: str, texts: Mapping[str, str], tree: str, whole: bool, config_for: Callable[[str], Config], facts: TreeFacts
) -> list[FileResult] | None:
    """The results (what each says of servers and clients) of the other files of the tree that
    say something; None when the tree has too many files to read."""
    from ..engine.checker import FileResult

    listed = _listing(tree, whole, config_for, facts)
    if listed is None:
        return None
    deadline = time.monotonic() + FRESH_READ_SECONDS
    marks = _Marks(texts)
    found = []
    for other in dict.fromkeys([*listed, *(name for name in texts if _below(name, tree) and (whole or os.path.dirname(name) == tree))]):
        if other == path:
            continue
        known = _served(checker, other, marks, config_for, facts, deadline)
        if known is False:
            raise _OutOfTime
        if known:
            found.append(FileResult(other, served=known, digest="", parsed=True))
    return found


def _served(
    checker: Checker, path: str, marks: _Marks, config_for: Callable[[str], Config], facts: TreeFacts, deadline: float
) -> Served | None | bool:
    """What `path` says of servers and clients, from the worker's memory while it and the files
    its reading read (a trainer's `--config` YAML) keep their stat or editor text; False when it
    is not known and the job's time for fresh reads is over."""
    mark = marks[path]
    if mark is None:
        return None
    remembered = facts.served.get(path)
    if remembered is not None and remembered[0] == mark and all(marks[read] == was for read, was in remembered[2]):
        return remembered[1]
    if time.monotonic() > deadline:
        return False
    text = marks.texts.get(path)
    data = text.encode("utf-8", "replace") if text is not None else _read(path)
    said, read = None, ()
    if data is not None:
        checker.config = config_for(path)
        said, read = _reading(checker, lambda: _says(checker, path, data))
    facts.served[path] = (mark, said, tuple((other, marks[other]) for other in read))
    return said


class _Marks(dict):
    """What tells each file's content changed, asked once a job: its editor text, else its stat
    (the facts of a tree's files share their reads: its pins, its configuration files)."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        super().__init__()
        self.texts = texts

    def __missing__(self, path: str) -> object:
        self[path] = mark = self.texts[path] if path in self.texts else _stat(path)
        return mark


def _reading(checker: Checker, says: Callable[[], Served | None]) -> tuple[Served | None, set[str]]:
    """`says()`, and the other files it read (from the disk or the editor)."""
    reads, asked = checker.reads, getattr(checker.overlay, "asked", None)
    checker.reads = []
    if asked is not None:
        checker.overlay.asked = set()  # type: ignore[attr-defined]
    try:
        said = says()
        return said, {os.path.abspath(read) for read in (*checker.reads, *getattr(checker.overlay, "asked", ()))}
    finally:
        checker.reads = reads
        if asked is not None:
            checker.overlay.asked = asked | checker.overlay.asked  # type: ignore[attr-defined]


def _says(checker: Checker, path: str, data: bytes) -> Served | None:
    kind = frontends.kind_for(path, data[:256])
    if kind is None:
        return None
    if frontends.relevant(kind, data):
        return checker.check_bytes(path, data).served
    return _clients_of(checker, path, data)


def _clients_of(checker: Checker, path: str, data: bytes) -> Served | None:
    """The clients of a file the prefilter turns away (not read above the size limit)."""
    from ..run.cross_file import clients_in

    kind = frontends.kind_for(path, data[:256])
    if kind not in ("python", "shell") or len(data) > checker.config.max_file_bytes:
        return None
    return clients_in(checker, path, kind, data)


def _listing(tree: str, whole: bool, config_for: Callable[[str], Config], facts: TreeFacts) -> list[str] | None:
    """The files of the tree, or of the folder when not `whole` (listed at most every
    `LISTING_SECONDS`); None when it holds more than `MAX_TREE_FILES`."""
    walked = facts.listings.get(tree)
    if walked is None or time.monotonic() - walked[0] > LISTING_SECONDS:
        walked = (time.monotonic(), _walk(tree, config_for(os.path.join(tree, "_"))) if whole else _own_files(tree))
        facts.listings[tree] = walked
    return walked[1]


def _walk(tree: str, config: Config) -> list[str] | None:
    from ..workspace.discovery import discover

    listed: list[str] = []
    for found in _candidates(discover([tree], config.excludes, config.respect_gitignore, False, None, [], config.root)):
        listed.append(os.path.abspath(found))
        if len(listed) > MAX_TREE_FILES:
            return None
    return listed


def _own_files(folder: str) -> list[str] | None:
    try:
        with os.scandir(folder) as entries:
            names = [entry.path for entry in entries if entry.is_file(follow_symlinks=False)]
    except OSError:
        return []
    return list(_candidates(iter(sorted(names)))) if len(names) <= MAX_TREE_FILES else None


def _candidates(paths: Iterator[str]) -> Iterator[str]:
    """The files a frontend may read: by suffix, or without one (a script's shebang decides later)."""
    for path in paths:
        name = os.path.basename(path)
        if "." not in name.lstrip(".") or frontends.kind_for(path) in _KINDS:
            yield path


def tree_of(path: str, roots: tuple[str, ...]) -> tuple[str, bool]:
    """The repository holding `path` (the nearest folder above it with `.git`), else the
    workspace folder holding it, both walked whole; else its own folder, only its files (a file
    opened in a home folder never walks it). Spelled as `path` is (`files.trusted_roots` gives
    real paths)."""
    folder = top = os.path.dirname(path)
    while not os.path.exists(os.path.join(top, ".git")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    if os.path.exists(os.path.join(top, ".git")):
        return top, True
    holding = [root for root in roots if _below(path, root)]
    return (max(holding, key=len), True) if holding else (folder, False)


def _below(name: str, folder: str) -> bool:
    return name.startswith(folder.rstrip(os.sep) + os.sep)


def _stat(path: str) -> tuple[int, int, int, int] | None:
    from ..engine.cache.stat_columns import stat_of

    return stat_of(path)


def _read(path: str) -> bytes | None:
    from .analysis import MAX_READ_BYTES

    try:
        return files.read_regular(path, MAX_READ_BYTES)
    except files.Unreadable:
        return None
