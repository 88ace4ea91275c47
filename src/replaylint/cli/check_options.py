"""`replaylint check`'s options, and the argparse parser the command line makes them with.

`cli` builds every command's parser for `--help` and the other commands; a check builds its own
alone (`check_parser`): the other commands' parsers, and what they import, cost a pre-commit run
more than the check of ten files without a launch.
"""

from __future__ import annotations

import argparse
import os
import sys

from .check_words import OPTIONS, SWITCH

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
        from ..report.printable import printable  # the message may quote a file name given as a word

        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"{self.prog}: error: {printable(message)}\n")


def check_parser() -> argparse.ArgumentParser:
    """`check`'s own parser, as `cli._parser` makes it for the subcommand (the same prog, help and
    errors): a check builds no other command's."""
    check = Parser(prog="replaylint check")
    add_check_arguments(check)
    return check


def add_check_arguments(check: argparse.ArgumentParser) -> None:
    """`check_words.OPTIONS`, in their help groups."""
    groups: dict[str | None, argparse._ActionsContainer] = {None: check}
    for group, flags, settings in OPTIONS:
        if group not in groups:
            groups[group] = check.add_argument_group(group)
        if settings.get("action") == SWITCH:
            _switch(groups[group], flags[0], settings["help"])
        else:
            groups[group].add_argument(*flags, **settings)


def _switch(group: argparse._ActionsContainer, option: str, help: str) -> None:
    """`--OPTION` and ruff's `--no-OPTION`, which undoes it (the last one given wins)."""
    dest = option[2:].replace("-", "_")
    group.add_argument(option, dest=dest, action="store_true", help=help)
    group.add_argument(f"--no-{option[2:]}", dest=dest, action="store_false", help=argparse.SUPPRESS)
