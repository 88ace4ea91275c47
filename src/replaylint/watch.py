"""`replaylint check --watch`: check, then check again whenever a file below the paths changes.

Changes are watched with `watchfiles` (the `replaylint[watch]` extra), which waits for a burst of
changes to settle (an editor's save, a `git checkout`) before it reports them once. Changes in
the result cache, `.git` and the other folders a walk skips start no check.
"""

from __future__ import annotations

import argparse
import copy
import fnmatch
import os
import sys
import time
from typing import Callable

from .discovery import CI_FOLDERS, DEFAULT_EXCLUDES


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
    status, waiting = run_check(copy.copy(args)), False
    sys.stdout.flush()
    try:
        # An empty set every half second: the first one says the watcher runs (a change made
        # before it would be missed), and the announcement waits for it.
        for changes in watchfiles.watch(*paths, watch_filter=_relevant, raise_interrupt=False, yield_on_timeout=True, rust_timeout=500):
            if changes:
                names = sorted({os.path.relpath(path) for _, path in changes})
                _announce(f"File change detected: {', '.join(names[:3])}{' ...' if len(names) > 3 else ''}")
                status, waiting = run_check(copy.copy(args)), False
                sys.stdout.flush()  # each report is complete before the next change
            if not waiting:
                _announce("Watching for file changes.")
                waiting = True
    except KeyboardInterrupt:
        pass
    return status


# Editors' temporary files: Emacs backups and locks, Vim swap files and its write test (4913),
# Kate swap files, JetBrains safe-write copies; none is a file a check reads.
_EDITOR_TEMPORARY = ("*~", ".#*", "#*#", "*.swp", "*.swo", "*.swx", ".*.sw?", "4913", ".*.kate-swp", "*___jb_tmp___", "*___jb_old___")


def _relevant(change: object, path: str) -> bool:
    """Whether a changed path may change a verdict: not an editor's temporary file, not inside
    a hidden folder (except the CI folders a walk reads), the result cache or a default exclude
    such as `node_modules`."""
    parts = path.split(os.sep)
    if any(fnmatch.fnmatchcase(parts[-1], pattern) for pattern in _EDITOR_TEMPORARY):
        return False
    return not any(
        (part.startswith(".") and part not in CI_FOLDERS and part not in (".", "..")) or part in DEFAULT_EXCLUDES for part in parts[:-1]
    )


def _announce(message: str) -> None:
    print(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] {message}", file=sys.stderr, flush=True)
