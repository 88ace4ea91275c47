"""Shell frontend: vLLM launches in `*.sh`, `*.bash` and shell-shebang files, read by the shell
interpreter in `readers.shell` (which also reads the shell strings other frontends find).

Unparsable files: tree-sitter-bash recovers from errors and also stumbles on some valid bash,
so a tree with ERROR nodes is reported as unparsable (RPL900) only when `bash -n` rejects the
file too (never for zsh/ksh scripts, nor when no bash is installed). Otherwise the file is read
and commands that touch an ERROR node are not taken as launches.
"""

from __future__ import annotations

from ..model import Launch
from ..readers.shell import render, run_script, script_world
from ..readers.shell.grammar import parse, rejection
from ..readers.shell.interpreter import Interpreter
from ..readers.shell.place import identity
from ..source import ExtractContext, ParseError, SourceFile

__all__ = ["extract", "parses", "render"]


def parses(text: str) -> bool:
    """True when tree-sitter-bash reads the text without ERROR or MISSING nodes."""
    try:
        return not parse(text).root.has_error
    except (ValueError, RecursionError, ParseError):  # ParseError: over a fresh file's budget
        return False


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    parsed = parse(source.text, context.budget, 0)
    if parsed.root.has_error:
        rejected = rejection(source.text)
        if rejected is not None:
            line, message = rejected
            raise ParseError(f"bash cannot parse this script: {message}", line, 1)
    interpreter = Interpreter(source, context)
    place = identity(parsed)
    place.budget = context.budget
    run_script(interpreter, place, script_world(context))
    return interpreter.launches


def clients(source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The HTTP clients of a script the prefilter turned away (its TRL trainers in server mode),
    left in `context` for the servers other files start; and its launches (servers without replay
    share a port with a replay server only as another server)."""
    return extract(source, context)
