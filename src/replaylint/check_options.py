"""`replaylint check`'s options, and the argparse parser the command line makes them with.

`cli` builds every command's parser for `--help` and the other commands; a check builds its own
alone (`check_parser`): the other commands' parsers, and what they import, cost a pre-commit run
more than the check of ten files without a launch.
"""

from __future__ import annotations

import argparse
import os
import sys

from .report import FORMATS

USAGE_ERROR = 2  # the exit status of a usage error (`cli.EXIT_ERROR`)


class _Formatter(argparse.HelpFormatter):
    """argparse's, with the terminal width read without `shutil`: argparse makes a formatter at
    every `add_argument`, and `shutil` imports three compression modules (3 ms of every run)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    """`shutil.get_terminal_size().columns`: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """argparse's, with our formatter, and errors that print a file name given as a word safely."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        from .report.printable import printable  # the message may quote a file name given as a word

        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"{self.prog}: error: {printable(message)}\n")


def check_parser() -> argparse.ArgumentParser:
    """`check`'s own parser, as `cli._parser` makes it for the subcommand (the same prog, help and
    errors): a check builds no other command's."""
    check = Parser(prog="replaylint check")
    add_check_arguments(check)
    return check


def add_check_arguments(check: argparse.ArgumentParser) -> None:
    check.add_argument("paths", nargs="*", default=[], metavar="PATH", help="files or folders; - reads stdin")
    check.add_argument(  # taken apart before parsing (_as_hook_runs_it): one word, never `--hook fix`
        "--hook",
        action="store_true",
        help="pre-commit's entry, `--hook` or `--hook=fix` right after `check` (implies --force-exclude): "
        "every later word that names a file is a path, never an option",
    )
    report = check.add_argument_group("report")
    report.add_argument(
        "--output-format",
        choices=FORMATS,
        default=None,
        help="how findings are printed (default: full) [env: REPLAYLINT_OUTPUT_FORMAT]",
    )
    report.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE [env: REPLAYLINT_OUTPUT_FILE]")
    report.add_argument("--statistics", action="store_true", help="count findings per rule")
    report.add_argument("--show-files", action="store_true", help="list the files that would be checked, and stop")
    report.add_argument("-v", "--verbose", action="store_true", help="say which configuration, files and time the run took (stderr)")
    report.add_argument("-q", "--quiet", action="store_true", help="print findings but no summary or notes")
    report.add_argument("-s", "--silent", action="store_true", help="print nothing; the exit status tells the outcome")
    report.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text report (auto: on a terminal, FORCE_COLOR or NO_COLOR decide)",
    )
    report.add_argument("-e", "--exit-zero", action="store_true", help="exit 0 even when there are findings")
    report.add_argument("--exit-non-zero-on-fix", action="store_true", help="exit 1 when --fix changed a file, even if nothing remains")
    rules = check.add_argument_group("rules")
    rules.add_argument("--target-vllm", metavar="X.Y[.Z]", help="judge every launch against this vLLM release")
    rules.add_argument(
        "--select", metavar="CODES", help="comma-separated codes, prefixes or rule names to check (replaces the configuration's)"
    )
    rules.add_argument("--extend-select", metavar="CODES", help="codes, prefixes or rule names checked in addition")
    rules.add_argument("--ignore", metavar="CODES", help="codes, prefixes or rule names not checked")
    rules.add_argument("--extend-ignore", metavar="CODES", help="the same as --ignore (ruff's older spelling)")
    rules.add_argument(
        "--per-file-ignores", action="append", metavar="GLOB:CODES", help="codes not checked in files matching GLOB (repeatable)"
    )
    rules.add_argument(
        "--extend-per-file-ignores", action="append", metavar="G:CODES", help="GLOB:CODES added to the configuration's (repeatable)"
    )
    rules.add_argument("--ignore-noqa", action="store_true", help="ignore every suppression comment (`# noqa`, `# replaylint: ...`)")
    fixes = check.add_argument_group("fixes")
    _switch(fixes, "--fix", "apply safe fixes")
    _switch(fixes, "--unsafe-fixes", "also apply (and count) unsafe fixes")
    _switch(fixes, "--fix-only", "apply fixes, and neither report nor fail on the findings left (implies --fix)")
    fixes.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and write nothing")
    _switch(fixes, "--show-fixes", "list the fixes that were applied")
    for option in ("fixable", "unfixable", "extend-fixable"):
        fixes.add_argument(f"--{option}", metavar="CODES", help=f"codes, prefixes or rule names: the configuration's `{option}`")
    fixes.add_argument("--add-noqa", action="store_true", help="add a suppression comment for every finding, and write nothing else")
    files = check.add_argument_group("files and configuration")
    files.add_argument(
        "--config",
        action="append",
        metavar="FILE | KEY=VALUE",
        help="a configuration file, or a TOML `key = value` that overrides it (repeatable)",
    )
    files.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    files.add_argument("--stdin-filename", metavar="PATH", help="the name of the file read from stdin")
    files.add_argument("--force-exclude", action="store_true", help="apply excludes to files given explicitly")
    files.add_argument("--exclude", metavar="PATTERNS", help="comma-separated globs that replace the default excludes")
    files.add_argument("--extend-exclude", metavar="PATTERNS", help="comma-separated globs excluded in addition")
    files.add_argument("--no-respect-gitignore", action="store_true", help="check files that .gitignore excludes too")
    files.add_argument("-w", "--watch", action="store_true", help="check again whenever a file changes (needs `replaylint[watch]`)")
    running = check.add_argument_group("running")
    running.add_argument("-n", "--no-cache", action="store_true", help="neither read nor write the result cache [env: REPLAYLINT_NO_CACHE]")
    running.add_argument(
        "--cache-dir", metavar="DIR", help="where the result cache lives (default .replaylint_cache) [env: REPLAYLINT_CACHE_DIR]"
    )
    running.add_argument("--workers", type=int, default=None, metavar="N", help="worker processes (default: by file count)")


def _switch(group: argparse._ArgumentGroup, option: str, help: str) -> None:
    """`--OPTION` and ruff's `--no-OPTION`, which undoes it (the last one given wins)."""
    dest = option[2:].replace("-", "_")
    group.add_argument(option, dest=dest, action="store_true", help=help)
    group.add_argument(f"--no-{option[2:]}", dest=dest, action="store_false", help=argparse.SUPPRESS)
