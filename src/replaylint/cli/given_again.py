"""A check's report left for the next run of the same words (`engine.cache.last_run`): the run
that wrote it decides whether it may be given again, and gathers what it rested on."""

from __future__ import annotations

import os

from ..engine.cache.last_run import RunFacts, cache_folder, forget
from ..report.console import said_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from ..engine.cache import ResultCache
    from ..engine.hierarchy import ConfigPerFile
    from ..report import Run


def remember_run(
    args: argparse.Namespace, settings: ConfigPerFile, result_cache: ResultCache | None, results: list, run: Run, status: int, said: int
) -> None:
    """Leave the report, with what it rested on, for the next run of the same words, when it
    may be given again (`may_be_given_again`) and the run said nothing more on stderr than
    `said` lines (before it began)."""
    if result_cache is None or status not in (0, 1) or said_lines() != said or not may_be_given_again(args, result_cache):
        return
    if result_cache.unsettled:  # a file changed within a clock step of the run: its stat cannot tell
        forget(result_cache)
        return
    facts = RunFacts(result_cache)
    facts.remembered()
    facts.searched(settings.known)  # (after the stamps: a folder stamped needs no more)
    for value in args.config or ():
        facts.stat_now(value)  # a file, or a `key = value` because no such file exists
    for path in args.paths or ["."]:
        facts.real(path)
        facts.repository_marks(os.path.realpath(path))  # `files.trusted_roots`
    facts.repository_marks(os.getcwd())  # the root the CI formats' paths are relative to
    facts.results(results)
    if result_cache.serving():
        facts.clients(results)
    facts.shown(run.findings)
    facts.remember(args.words, run.rendered, status)


def may_be_given_again(args: argparse.Namespace, result_cache: ResultCache) -> bool:
    """A check of folders that only reports (no fix, no file named, nothing written but stdout),
    with the cache folder a run finds before reading its configuration."""
    words = getattr(args, "words", None)
    if words is None or args.watch or args.fix or args.diff or args.add_noqa or args.verbose or args.show_files:
        return False
    if args.output_file or args.silent or args.stdin_filename or any(word.startswith("--hook") for word in words):
        return False  # (a hook's words are paths or options by what exists)
    folder = cache_folder(words)
    if folder is None or os.path.abspath(folder) != os.path.abspath(result_cache.directory):
        return False
    return all(path != "-" and os.path.isdir(path) for path in args.paths or ["."])
