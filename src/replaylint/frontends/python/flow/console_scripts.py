"""The commands a project installs that run a function of a module of the tree: alpaca_eval's
`[project.scripts] alpaca_eval = "alpaca_eval.main:main"`, whose `main()` hands the command line to
`fire.Fire(ALL_FUNCTIONS)`; `alpaca_eval evaluate_from_model --model_configs X` in a script of the
tree then runs that module (`script_flags`).

The packaging files (`pyproject.toml`, `setup.cfg`, `setup.py`) are those of the nearest folder, from
the one that holds the module's top package upwards, that has one. Such a file starts no program
itself when its commands' declarations and the project's name are all it says of the module and of
them: it is then not counted as a file that may run the module another way."""

from __future__ import annotations

import os
import re

from ...packaging import PACKAGING, console_scripts
from .import_roots import import_root

_UP = 3  # folders looked into for the packaging, from the one above the module's top package
_NAME_LINE = re.compile(r"(?m)^\s*name\s*=.*$")


def console_commands(context, path: str, function: str) -> tuple[dict[str, str], frozenset[str]]:
    """({command: the module's dotted name} of the commands that run `function` of the module at
    `path`, the packaging files that only declare them)."""
    root = import_root(context.read_text, path)
    if root is None:
        return {}, frozenset()
    dotted = os.path.splitext(os.path.relpath(path, root or os.curdir))[0].replace(os.sep, ".")
    folder = root or os.curdir
    for _ in range(_UP):
        present = {file: text for name in PACKAGING if (text := context.read_text(file := os.path.join(folder, name))) is not None}
        if present:
            return _declared(present, dotted, function, os.path.splitext(os.path.basename(path))[0])
        parent = os.path.dirname(folder) or os.curdir
        if parent == folder:
            break
        folder = parent
    return {}, frozenset()


def _declared(present: dict[str, str], dotted: str, function: str, stem: str) -> tuple[dict[str, str], frozenset[str]]:
    commands: dict[str, str] = {}
    only_declaring = set()
    for file, text in present.items():
        declared = console_scripts(file, text)
        mine = [entry for entry in declared if _target(entry.target) == (dotted, function)]
        commands.update((entry.name, dotted) for entry in mine)
        lines = {line for entry in declared for line in range(entry.span.start_line, entry.span.end_line + 1)}
        rest = _NAME_LINE.sub("", "\n".join(line for number, line in enumerate(text.splitlines(), 1) if number not in lines))
        if mine and not any(word in rest for word in (stem, *(entry.name for entry in mine))):
            only_declaring.add(os.path.normpath(file))
    return commands, frozenset(only_declaring)


def _target(target: str) -> tuple[str, str] | None:
    """(module, function) of an entry point's `pkg.main:main` (extras `[x]` dropped)."""
    module, colon, attribute = target.partition("[")[0].strip().partition(":")
    return (module.strip(), attribute.strip()) if colon and attribute.strip().isidentifier() else None
