"""The command line another file of the tree runs a module with, for the file a program opens by
an option of its parser: a compose service's `command: python -m rl.rollout --config
configs/rollout.yaml` gives `open(args.config)` of `rl/rollout.py` (`args = parser.parse_args()`)
the file `configs/rollout.yaml`, from the folder `python -m` finds the package in (the one above
its top package), as a click option's default is read (`yaml_configs`).

The compose files looked at are those of that folder and of its folders one level down. Only a
command spelt out whole is read: `python -m MODULE` first (no shell, no entrypoint of the
service's own); a word the shell or compose would substitute (`$CONFIG`), two command lines that
differ, or an option the parser does not show, leave the path unknown."""

from __future__ import annotations

import ast
import os
import re
import shlex

from .frames import Frame, reaching
from .parsers import Parser, written_command_line

_COMPOSE = re.compile(r"(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml")
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
_MAX_FOLDERS = 12  # folders below the top looked into for compose files


def run_option(reader, node: ast.expr, frame: Frame, root: str | None) -> str | None:
    """`args.config` of `args = parser.parse_args()`: the relative path the one command line that
    runs the module gives the option (or its default there); None where that is not known."""
    if root is None or not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return None
    binding = reaching(frame, node.value.id)
    parsed = binding.value if binding is not None and binding.kind == "value" and binding.element is None else None
    if not (isinstance(parsed, ast.Call) and isinstance(parsed.func, ast.Attribute) and parsed.func.attr == "parse_args"):
        return None
    if parsed.args or parsed.keywords:
        return None
    parser = reader.evaluate(parsed.func.value, frame.reading(binding.placed)).ref  # type: ignore[union-attr]
    words = run_words(reader, frame.module.path, root) if isinstance(parser, Parser) else None
    if words is None:
        return None
    spelt = ast.List([ast.copy_location(ast.Constant(word), node) for word in words])  # only the value is taken: no span of it is kept
    given = written_command_line(reader, parser, spelt, frame)
    item = given.entries.get(node.attr) if given is not None else None
    value = item.setting.value if item is not None and not item.guards else None
    return value if isinstance(value, str) and value and not os.path.isabs(value) else None


def run_words(reader, path: str, root: str) -> list[str] | None:
    """The words after `python -m MODULE` in the one command line of the tree's compose files that
    runs the module at `path` (None: none, or several that differ, or one not spelt out)."""
    known: dict = reader.__dict__.setdefault("_run_words", {})
    if path not in known:
        dotted = os.path.splitext(os.path.relpath(path, root))[0].replace(os.sep, ".").removesuffix(".__init__")
        found = {tuple(words) if words is not None else None for words in _commands(reader, root, dotted)}
        known[path] = list(next(iter(found))) if len(found) == 1 and None not in found else None  # type: ignore[arg-type]
    return known[path]


def _commands(reader, root: str, dotted: str) -> list[list[str] | None]:
    context = reader.tree.context
    top = root or os.curdir
    folders = [top] + [os.path.join(top, name) for name in context.list_folder(top) if not name.startswith(".")][:_MAX_FOLDERS]
    found: list[list[str] | None] = []
    for folder in folders:
        for name in context.list_folder(folder):
            text = context.read_text(os.path.join(folder, name)) if _COMPOSE.fullmatch(name) else None
            found += _service_commands(text, dotted) if text is not None and dotted in text else []
    return found


def _service_commands(text: str, dotted: str) -> list[list[str] | None]:
    """The words after `python -m DOTTED` of each service whose command runs it (None: one not spelt out)."""
    from ....readers.yaml_nodes import ComposeError, compose_all, construct, get, mapping

    try:
        documents = compose_all(text)
    except ComposeError:
        return [None]
    found: list[list[str] | None] = []
    for document in documents:
        for _, service in mapping(get(document, "services")).values():
            command = get(service, "command")
            value = construct(command) if command is not None else None
            if not (isinstance(value, str) and dotted in value or isinstance(value, list) and dotted in value):
                continue
            found.append(None if get(service, "entrypoint") is not None else _after_module(value, dotted))
    return found


def _after_module(command: str | list, dotted: str) -> list[str] | None:
    try:
        words = shlex.split(command) if isinstance(command, str) else command
    except ValueError:
        return None
    if not all(isinstance(word, str) and "$" not in word for word in words):
        return None
    if len(words) < 3 or not _PYTHON.fullmatch(os.path.basename(words[0])) or words[1:3] != ["-m", dotted]:
        return None
    return words[3:]
