"""The CI templates' way into `replaylint check` (action.yml, ci/gitlab/): their options and
paths arrive as one string each and are split here, as written, never by a shell.

    python -I -m replaylint.cli.ci_job OPTIONS PATHS [OPTION ...]

runs `replaylint check OPTIONS OPTION ... -- PATHS`. A string holding a line break (a YAML `|`
block) is one argument a line, as written (blanks around it dropped, empty lines skipped); a
string on one line is split as a POSIX shell splits words (shlex): quotes group, backslashes
escape, and nothing is expanded (no globs, no variables, no commands).
"""

from __future__ import annotations

import shlex
import sys

from replaylint.cli import main as cli

USAGE = "usage: python -I -m replaylint.cli.ci_job OPTIONS PATHS [OPTION ...]"


def split(text: str) -> list[str]:
    """The arguments `text` stands for (see the module's docstring)."""
    if "\n" in text:
        return [line.strip() for line in text.splitlines() if line.strip()]
    return shlex.split(text)


def check_argv(options: str, paths: str, fixed: list[str]) -> list[str]:
    """`replaylint check`'s arguments: the user's options, then the template's own (last, so
    that they win), then the paths after `--`, so that no path is read as an option."""
    return ["check", *split(options), *fixed, "--", *split(paths)]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(USAGE, file=sys.stderr)
        return cli.EXIT_ERROR
    options, paths, *fixed = argv
    for text in (options, paths):
        try:
            split(text)
        except ValueError as error:  # shlex: an unclosed quote, a trailing backslash
            print(f"replaylint: cannot split {text!r} into arguments: {error}.", file=sys.stderr)
            print("Quote as a POSIX shell does, or give one argument a line (a YAML `|` block).", file=sys.stderr)
            return cli.EXIT_ERROR
    sys.argv = ["replaylint", *check_argv(options, paths, fixed)]
    cli.entry()  # the console script's own ending: it exits
    return cli.EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
