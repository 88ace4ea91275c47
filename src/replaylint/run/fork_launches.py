"""Files of a framework's own source named without the launches that read them (pre-commit
names only the changed files): the launches of the fork's tree that read such a file are checked
again, and what they report in it is the file's.

A fork reader reads the framework's file above the launching file (`frameworks.fork_files`), so
the launches that may read it are the files under the fork's root, outside its package folder.
When the run names none of those itself (a file replaylint may read: a README does not count),
they are walked (nearest first, at most `MAX_FOLDERS`
folders and `MAX_FILES` files); each that the prefilter lets through is checked (at most
`MAX_LAUNCHES`), and its findings that sit in the named file are added to that file's result
when the launch's check read the file (its result's dependencies).
"""

from __future__ import annotations

import os

from .. import files, frontends
from ..engine.checker import Checker, FileResult
from ..frameworks.fork_files import PACKAGES, fork_root

MAX_FOLDERS = 200
MAX_FILES = 2000
MAX_LAUNCHES = 50
_SKIPPED = ("node_modules", "venv", ".venv", "__pycache__", "site-packages", "build", "dist")


def recheck_fork_launches(checker: Checker, results: list[FileResult]) -> list[FileResult]:
    """The results, with what the launches of their trees report in the fork files among them."""
    paths = "\n".join(result.path for result in results).replace("\\", "/")
    if not any(f"{package}/" in paths for package in PACKAGES):
        return results  # most runs: no framework's source
    checked: dict[str, FileResult] = {}
    walked: dict[tuple[str, str], dict[str, bytes]] = {}  # a fork's launch files, walked once a run
    reals: list[str] = []
    for result in results:
        found = fork_root(result.path)
        if found is None or result.error or result.internal_error:
            continue
        root, relative = found
        package = os.path.normpath(os.path.join(root, relative.split("/", 1)[0]))
        reals = reals or [os.path.realpath(other.path) for other in results if frontends.kind_for(other.path) is not None]
        inside, own = os.path.realpath(root).rstrip(os.sep) + os.sep, os.path.realpath(package) + os.sep
        if any(real.startswith(inside) and not real.startswith(own) for real in reals):
            continue  # the run checks the tree's launches itself
        target = os.path.realpath(result.path)
        if (root, package) not in walked:
            walked[root, package] = _launches(root, package, checker.config.max_file_bytes)
        for launch, data in walked[root, package].items():
            if launch not in checked:
                checked[launch] = _checked(checker, launch, data)
            launched = checked[launch]
            if target in {os.path.realpath(path) for path in launched.dependencies}:
                result.findings += [f for f in launched.findings if os.path.realpath(f.span.path) == target and f not in result.findings]
    return results


def _checked(checker: Checker, path: str, data: bytes) -> FileResult:
    config, reads = checker.config, checker.reads
    try:
        return checker.check_data(path, data)
    finally:
        checker.config, checker.reads = config, reads


def _launches(root: str, package: str, limit: int) -> dict[str, bytes]:
    """The files under `root` but `package` the prefilter lets through, nearest first (bounded),
    with their bytes (read once: the prefilter's are the check's)."""
    found: dict[str, bytes] = {}
    seen = 0
    skipped = os.path.realpath(package)
    for visited, (current, folders, names) in enumerate(os.walk(root)):
        if visited >= MAX_FOLDERS:
            break
        folders[:] = sorted(
            f for f in folders if not f.startswith(".") and f not in _SKIPPED and os.path.realpath(os.path.join(current, f)) != skipped
        )
        for name in sorted(names):
            path = os.path.normpath(os.path.join(current, name))
            kind = frontends.kind_for(path)
            if kind is None:
                continue
            seen += 1
            if seen > MAX_FILES:
                return found
            try:
                data = files.read_regular(path, limit, follow=False)
            except files.Unreadable:
                continue
            if frontends.relevant(kind, data):
                found[path] = data
                if len(found) >= MAX_LAUNCHES:
                    return found
    return found
