"""The Python programs a script runs (`python -m star_align.self_ossinstruct`, `python3 -u tools/gen.py`,
also behind `nohup`, `env NAME=V`, `uv run`, `poetry run`), each with what the environment gives one
variable there: a `NAME=V` prefix, else the script's own `export NAME=V` on that path. A variable
the script does not export comes from whoever runs the script (unknown); so does one after a
`source` of a file not read. The script is read by the shell interpreter in the order bash runs it;
each path it cannot tell apart gives its own run."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ...records import record
from ...source import ExtractContext, SourceFile
from ..python_runs import ProgramRun, is_python, program_target
from .grammar import parse
from .interpreter import Interpreter
from .launchers import EnvWord
from .place import identity
from .values import Field, scalar_text
from .world import World

_PREFIXES = frozenset(("nohup", "time", "exec", "stdbuf"))
_RUNNERS = frozenset(("uv", "poetry", "pdm", "pipenv", "hatch", "rye"))


def program_runs(source: SourceFile, context: ExtractContext, name: str) -> list[ProgramRun] | None:
    """The Python programs the script `source` runs, each with what `name` holds in its environment;
    None for a script tree-sitter-bash does not read whole."""
    reading = ExtractContext(read_text=context.read_text, list_folder=context.list_folder, root=context.root, budget=context.budget)
    parsed = parse(source.text, context.budget, 0)
    if parsed.root.has_error:
        return None
    watcher = _Watcher(source, reading, variable=name)
    place = identity(parsed)
    place.budget = context.budget
    watcher.finish(watcher.run_script(place, [World(assigns=frozenset())]))
    return list(dict.fromkeys(watcher.runs))


@record
class _Watcher(Interpreter):
    """The interpreter, noting each Python program a command runs instead of reading it further."""

    variable: str = ""
    runs: list[ProgramRun] = field(default_factory=list)

    def _run(self, fields: list[Field], env_words: list[EnvWord], world: World, place: Any, node: Any, span: Any, plain: list[Field]):
        run = _program(plain, env_words, world, self.variable)
        if run is None:
            return super()._run(fields, env_words, world, place, node, span, plain)
        self.runs.append(run)
        return None


def _program(words: list[Field], env_words: list[EnvWord], world: World, name: str) -> ProgramRun | None:
    given = {word.name: word.value for word in env_words}
    position = 0
    while position < len(words) and words[position].text in _PREFIXES:
        position += 1
    if position < len(words) and words[position].text == "env":
        position += 1
        while position < len(words) and (words[position].text or "").partition("=")[1]:
            key, _, value = words[position].text.partition("=")  # type: ignore[union-attr]
            given[key] = value
            position += 1
    if position + 1 < len(words) and words[position].text in _RUNNERS and words[position + 1].text == "run":
        position += 2
    head = words[position].text if position < len(words) else None
    if head is None or not is_python(head):
        return None
    target = program_target([word.text for word in words[position + 1 :]])
    if target is None:
        return None
    module, path = target
    return ProgramRun(module, path, _value(given, world, name), words[position].start)


def _value(given: dict[str, Any], world: World, name: str) -> str | None:
    """What `name` holds in the program's environment: a prefix's, else the script's export."""
    if name in given:
        value = given[name]
        return value if isinstance(value, str) else None
    if name not in world.exported:
        return None  # the caller's environment: not known here
    return scalar_text(world.variables.get(name))
