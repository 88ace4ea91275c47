"""`replaylint check --watch`: check, then check again whenever a file below the paths changes.

Changes are watched with `watchfiles` (the `replaylint[watch]` extra), which waits for a burst of
changes to settle (an editor's save, a `git checkout`) before it reports them once. Each folder a
walk would read is watched on its own, never through a symlink (a tree's `root -> /` would
otherwise watch the whole machine), and the list is made again after every change, so a new
folder is watched from the next check on. Hidden folders (but the CI folders a walk reads), the
result cache and default excludes such as `node_modules` are judged by their path below the
watched folder, never by the folders above it (a project in `~/build/` is watched like any).
"""

from __future__ import annotations

import argparse
import copy
import fnmatch
import os
import sys
import time
from typing import Callable

from ..workspace.discovery import CI_FOLDERS, DEFAULT_EXCLUDES


def watch(args: argparse.Namespace, run_check: Callable[[argparse.Namespace], int]) -> int:
    try:
        import watchfiles
    except ModuleNotFoundError:
        print("replaylint: error: --watch needs the `watchfiles` package: pip install 'replaylint[watch]'", file=sys.stderr)
        return 2
    if args.fix or args.diff or args.add_noqa or args.paths == ["-"]:
        print(
            "replaylint: error: --watch checks files as they change; it does not combine with --fix, --diff, --add-noqa or stdin",
            file=sys.stderr,
        )
        return 2
    paths = args.paths or ["."]
    _announce("Starting replaylint in watch mode...")
    status, pending, waiting = 0, True, False
    try:
        while True:
            # An empty set every half second: the first one says the watcher runs, and the check
            # waits for it (a change made during the check is then seen by this watcher).
            watcher = watchfiles.watch(
                *watched_paths(paths),
                watch_filter=_relevant,
                raise_interrupt=False,
                yield_on_timeout=True,
                rust_timeout=500,
                recursive=False,
            )
            for changes in watcher:
                if changes:
                    names = sorted({os.path.relpath(path) for _, path in changes})
                    _announce(f"File change detected: {', '.join(names[:3])}{' ...' if len(names) > 3 else ''}")
                    pending = True
                    break  # watch again: the change may have made or removed a folder
                if pending:
                    status, pending, waiting = run_check(copy.copy(args)), False, False
                    sys.stdout.flush()  # each report is complete before the next change
                if not waiting:
                    _announce("Watching for file changes.")
                    waiting = True
            else:
                return status  # interrupted
    except KeyboardInterrupt:
        pass
    return status


def watched_paths(paths: list[str]) -> list[str]:
    """The files named and every folder below the folders named that a walk reads: symlinks to
    folders are not followed, hidden and default-excluded folders not entered."""
    watched: list[str] = []
    for given in paths:
        if not os.path.isdir(given):
            watched.append(given)
            continue
        for folder, dirs, _ in os.walk(given):
            watched.append(folder)
            dirs[:] = [name for name in dirs if not _skipped(name)]
    return [path for path in dict.fromkeys(watched) if os.path.lexists(path)]


def _skipped(name: str) -> bool:
    return (name.startswith(".") and name not in CI_FOLDERS) or name in DEFAULT_EXCLUDES


# Editors' temporary files: Emacs backups and locks, Vim swap files and its write test (4913),
# Kate swap files, JetBrains safe-write copies; none is a file a check reads.
_EDITOR_TEMPORARY = ("*~", ".#*", "#*#", "*.swp", "*.swo", "*.swx", ".*.sw?", "4913", ".*.kate-swp", "*___jb_tmp___", "*___jb_old___")


def _relevant(change: object, path: str) -> bool:
    """Whether a changed path may change a verdict: not an editor's temporary file, not a hidden
    folder such as the result cache, nor a default exclude (its folder is one a walk reads, or it
    would not be watched). A hidden file may: `.gitignore`, `.replaylint.toml`."""
    name = os.path.basename(path)
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in _EDITOR_TEMPORARY):
        return False
    return name not in DEFAULT_EXCLUDES and not (_skipped(name) and os.path.isdir(path))


def _announce(message: str) -> None:
    print(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] {message}", file=sys.stderr, flush=True)
