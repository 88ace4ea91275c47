"""Shell frontend: vLLM launches in `*.sh`, `*.bash` and shell-shebang files, read by the shell
interpreter in `readers.shell` (which also reads the shell strings other frontends find).

Unparsable files: tree-sitter-bash recovers from errors and also stumbles on some valid bash,
so a tree with ERROR nodes is reported as unparsable (RPL900) only when `bash -n` rejects the
file too (never for zsh/ksh scripts, nor when no bash is installed). Otherwise the file is read
and commands that touch an ERROR node are not taken as launches.
"""

from __future__ import annotations

import re

from ..model import Launch
from ..readers.deployed_env import deployed_env
from ..readers.shell import render, run_script, script_world
from ..readers.shell.grammar import parse, rejection
from ..readers.shell.interpreter import Interpreter
from ..readers.shell.place import identity
from ..readers.shell.script_files import named_files
from ..readers.shell.values import Chunk, Scalar
from ..readers.shell.world import EnvEntry, World
from ..source import ExtractContext, ParseError, SourceFile
from . import relevant
from .python_programs import spawned_by_programs, with_program_requests

__all__ = ["extract", "parses", "render", "worth_reading"]

_WRAPPER_LEVELS = 2  # script files running script files, looked through before a wrapper is read


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
    run_script(interpreter, place, _with_deployment(script_world(context), source, context))
    launches = interpreter.launches + spawned_by_programs(source, context, interpreter.launches)
    return with_program_requests(launches, context)  # a program of the tree run with vLLM's engine options


def worth_reading(source: SourceFile, context: ExtractContext) -> bool:
    """The engine's second look past the prefilter: a script it keeps only because it runs script files is
    read when a file it may run is kept on its own words, or runs one that is (`_WRAPPER_LEVELS` down): a
    wrapper of scripts that start nothing with replay starts nothing with replay."""
    data = source.text.encode(errors="replace")
    if relevant("shell", data, wrappers=False) or not relevant("shell", data):
        return True  # (a script the prefilter keeps on its words, or one handed over without it: read as written)
    level, seen = [source], {source.path}
    for _ in range(_WRAPPER_LEVELS):
        level = [callee for each in level for callee in named_files(each, context) if callee.path not in seen]
        if any(relevant("shell", each.text.encode(errors="replace"), wrappers=False) for each in level):
            return True
        seen.update(callee.path for callee in level)
    return False


def _with_deployment(world: World, source: SourceFile, context: ExtractContext) -> World:
    """The script's world with the variables a deployment of the tree starts its image with
    (`readers.deployed_env`), exported. A value written in the deployment file is read where the
    script first expands it, since its text is not the script's."""
    env = deployed_env(source.path, context)
    if not env:
        return world
    world = world.copy(exported=world.exported | frozenset(env))
    for name, setting in env.items():
        world.env[name] = EnvEntry(setting, None)
        if isinstance(setting.value, str):
            start, end = _first_expansion(source.text, name)
            world.variables[name] = Scalar((Chunk(setting.value, start, end, False, True, False, None),))
    return world


def _first_expansion(text: str, name: str) -> tuple[int, int]:
    found = re.search(rf"\$(\{{)?{re.escape(name)}\b[^}}\s\"]*\}}?", text)
    return (found.start(), found.end()) if found is not None else (0, 0)


def clients(source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The HTTP clients of a script the prefilter turned away (its TRL trainers in server mode),
    left in `context` for the servers other files start; and its launches (servers without replay
    share a port with a replay server only as another server)."""
    return extract(source, context)
