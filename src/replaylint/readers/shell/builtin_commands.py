"""What bash's builtins do to the interpreter's state (`set`, `shift`, `source`, `eval`, `read`...,
a `pip install vllm==X` as release evidence) and how it enters function calls and scripts
inside scripts, within their limits (reported as RPL902 past them)."""

from __future__ import annotations

import contextlib
import re
from typing import Iterator

from ...model import VersionHint
from ...source import ExtractContext
from ...vllm.images import release_from_pin
from .assignments import assigned_by, assigned_names
from .grammar import Node
from .place import Place
from .positional import drop
from .scripts import assemble
from .spans import ScriptSpans
from .values import Field
from .world import MAX_VALUE, TOO_BIG, EnvEntry, Frame, World, collapse, leave, set_builtin

# Scripts inside scripts (`bash -c`, heredocs fed to a shell, `eval`): a script nested deeper
# is not read and is reported (RPL902). Each level is read in time linear in its text, whose
# quoting grows with every level, so the file's budget bounds the cost, not this depth.
MAX_SCRIPT_DEPTH = 16
# Function calls inside function calls. A deeper call is not entered; that is reported only for
# a function whose body was never read (recursion reads the same body again).
MAX_CALL_DEPTH = 32
# Calls of one function read (each repeats its body, once per world); later calls make its
# assignments unknown. One from a call site never read, of a function that starts vLLM, is
# reported: its arguments were never seen.
_MAX_CALLS = 16
# Files sourced for their side effects on PATH and prompts (virtualenvs, conda, rc files).
_HARMLESS_SOURCE = re.compile(r"(^|/)(activate|activate\.sh|conda\.sh|mamba\.sh|\.?bashrc|\.?bash_profile|\.?profile|\.?zshrc|env)$")
_HOME_PATH = re.compile(r"""^["']?(?:~|\$HOME|\$\{HOME\})/[^$`"'*?\[]*["']?$""")  # `~/.bashrc`, `"$HOME/.profile"`
_PIP = re.compile(r"^(pip\d*(\.\d+)?)$")


class BuiltinCommands:
    """Builtins and calls, for `interpreter.Interpreter`."""

    context: ExtractContext
    spans: ScriptSpans
    functions: dict[str, tuple[Node, Place]]
    calls: dict[str, int]
    depth: int
    call_depth: int
    entered: set[str]
    call_sites: set[int]
    launching: set[str]
    emitted: int

    def statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        raise NotImplementedError

    def run_script(self, place: Place, worlds: list[World]) -> list[World]:
        raise NotImplementedError

    def run_file(self, word: Field, arguments: list[Field] | None, world: World, by_path: bool = False) -> bool:
        raise NotImplementedError

    def read_file(self, word: Field, arguments: list[Field] | None, world: World, by_path: bool = False) -> World | None:
        raise NotImplementedError

    def builtin(self, head: str | None, fields: list[Field], world: World) -> World:
        """What builtins do to the shell's state; other commands leave it alone."""
        arguments = fields[1:]
        if head == "set":
            if len(arguments) > MAX_VALUE:
                self.context.not_entered(TOO_BIG, fields[0].start)
            return set_builtin(world, arguments)
        if head == "shift":
            if world.positional is None:
                return world
            count = int(arguments[0].text) if arguments and arguments[0].text and arguments[0].text.isdigit() else 1
            return world.copy(positional=drop(world.positional, count))
        if head in ("source", "."):
            path = _sourced_path(arguments[0]) if arguments else None
            if path is not None and _HARMLESS_SOURCE.search(path):
                return world
            after = self.read_file(arguments[0], arguments[1:] or None, world) if arguments else None
            return world.forget() if after is None else sourced(world, after, bool(arguments[1:]))
        if head == "eval":
            return self.eval(arguments, world)
        if head in ("read", "mapfile", "readarray", "getopts", "let", "printf", "wait"):
            return world.kill(assigned_by(head, arguments))
        if head is not None and (_PIP.match(head.rsplit("/", 1)[-1]) or head in ("uv", "python", "python3")):
            return self._pin(fields, world)
        return world

    def _pin(self, fields: list[Field], world: World) -> World:
        """`pip install vllm==0.31.0` (also `uv pip`, `python -m pip`): evidence of the release."""
        texts = [f.text for f in fields]
        if "install" not in texts:
            return world
        for word in fields[texts.index("install") + 1 :]:
            if word.text is None:
                continue
            release = release_from_pin(word.text)
            if release is not None:
                hint = VersionHint((str(release),), f"pip install {word.text}", self.spans.span(word.start, word.end))
                return world.copy(pin=hint)
        return world

    def eval(self, arguments: list[Field], world: World) -> World:
        """`eval WORDS`: the words joined by spaces run as a script in this shell."""
        if arguments and not self.can_enter_script(arguments[0].start, "`eval`"):
            return world.forget()
        nested = assemble(arguments, self.depth, self.context.budget) if arguments else None
        if nested is None:
            return world.forget()
        with self.deeper():
            worlds = self.run_script(nested, [world])
        after = worlds[0] if len(worlds) == 1 else collapse(worlds)
        if any(not word.known for word in arguments):  # `eval "$(conda shell.bash hook)"`: text we cannot read
            after = after.copy(env_open=True)
        return after

    def can_enter_script(self, offset: int, what: str) -> bool:
        """Whether a script inside this one is read; one nested too deep is reported at `offset`."""
        if self.depth < MAX_SCRIPT_DEPTH:
            return True
        self.context.not_entered(f"{what} nested deeper than {MAX_SCRIPT_DEPTH} scripts inside scripts is not read", offset)
        return False

    @contextlib.contextmanager
    def deeper(self) -> Iterator[None]:
        """One more script inside another (bounded by `MAX_SCRIPT_DEPTH`)."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def call(self, name: str, world: World, arguments: list[Field], offset: int) -> list[World]:
        body, place = self.functions[name]
        self.calls[name] = self.calls.get(name, 0) + 1
        too_deep = self.call_depth >= MAX_CALL_DEPTH
        if too_deep or self.calls[name] > _MAX_CALLS:
            if too_deep and name not in self.entered:
                self.context.not_entered(f"function calls nested deeper than {MAX_CALL_DEPTH} are not read (`{name}`)", offset)
            elif not too_deep and name in self.launching and offset not in self.call_sites:
                self.context.not_entered(f"calls of `{name}`, which starts vLLM, after the first {_MAX_CALLS} are not read", offset)
            return [world.kill(assigned_names(body, place, self.functions))]
        self.entered.add(name)
        self.call_sites.add(offset)
        frame = Frame((), world.positional)
        if len(arguments) > MAX_VALUE:
            self.context.not_entered(TOO_BIG, offset)
        entered = world.copy(positional=tuple(arguments) if len(arguments) <= MAX_VALUE else None, frames=(*world.frames, frame))
        emitted = self.emitted
        self.call_depth += 1
        try:
            after = self.statement(body, place, [entered])
        finally:
            self.call_depth -= 1
        if self.emitted > emitted:
            self.launching.add(name)
        return [leave(result) for result in after]


def sourced(before: World, after: World, own_arguments: bool) -> World:
    """This shell after `source FILE` of the tree, read in it (`after`): the variables it exports
    are known with their place in that file; its other variables stay unknown (their words'
    offsets are the chain's, not this file's). Given arguments of its own, the file's `"$@"`
    ends with it; otherwise a `set --` in it is this shell's."""
    env = {name: entry if before.env.get(name) is entry else EnvEntry(entry.setting, None) for name, entry in after.env.items()}
    assigned = {name: entry for name, entry in before.assigned.items() if after.assigned.get(name) is entry}
    positional = before.positional if own_arguments or after.positional == before.positional else None
    return before.forget().copy(env=env, assigned=assigned, exported=after.exported, env_open=after.env_open, positional=positional)


def _sourced_path(word: Field) -> str | None:
    """The path a `source` names: its text, or, under the home folder (`~/.bashrc`, `$HOME/.profile`), as written."""
    if word.text is not None:
        return word.text
    return word.raw.strip("\"'") if _HOME_PATH.match(word.raw) else None
