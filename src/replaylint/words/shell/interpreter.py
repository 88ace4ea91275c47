"""Reading a script in the order bash runs it, to know what every command receives.

The reader keeps a `World` per run-time path it cannot tell apart: variables (absent = unknown,
they may come from the environment), arrays, exported `VLLM_*` variables, positional
parameters. Assignments change it in order, so a variable assigned twice has its latest value.
`if`/`case`/`&&`/`||` branches that change variables fork the world (up to `MAX_WORLDS`; past
that, variables that differ become unknown); loops make what they assign unknown; subshells,
pipelines and background jobs work on a copy; `source`/`eval` of something we cannot read
makes every variable unknown. Functions run where they are called, with the call's words as
`$@` (a function never called in the file runs once at the end with unknown arguments).

A command that starts vLLM becomes one `Launch` per world; variants that agree on every
replay-relevant fact are merged, and the ones that differ carry `condition` ("when `...`").
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator

from ...edits import Sequence
from ...model import UNKNOWN, ArgIssue, Launch, LaunchKind, Setting, Span, VersionHint
from ...vllm.argv import Token
from ...vllm.fields import FIELDS
from ...vllm.images import release_from_pin
from ...vllm.releases import Release
from ...source import ExtractContext, SourceFile
from ...command import CommandHandle, EnvPlace, WordSyntax
from ...frameworks.commands import command_launch
from .conditions import dynamic, outcome, statements_outcome
from .grammar import Node
from .launchers import EnvWord, Invocation, ShellScript, find, image_release
from .nodes import code, descendants, exits, if_branches, single_variable, statement_break, touches_error, words_of
from .place import Place, quoting
from .scripts import assemble, heredoc, herestring
from .words import UNSET, Array, Chunk, Container, Expander, Field, Scalar, Value, matches, scalar_text
from .world import MAX_VALUE, RELEVANT_ENV, EnvEntry, Frame, World, child_shell, collapse, describe, export_name, join, leave, make_local, set_builtin, unknown_entry

_MAX_DEPTH = 6
_MAX_CALLS = 16
_BUDGET = 20_000  # statements read per file, plus one per 8 characters (function calls repeat bodies)
_MAX_NESTING = 60  # statements inside statements; deeper code is not read (Python's stack)
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
# Files sourced for their side effects on PATH and prompts (virtualenvs, conda, rc files).
_HARMLESS_SOURCE = re.compile(r"(^|/)(activate|activate\.sh|conda\.sh|mamba\.sh|\.?bashrc|\.?bash_profile|\.?profile|\.?zshrc|env)$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PIP = re.compile(r"^(pip\d*(\.\d+)?)$")
_BROKEN_CONTINUATION = re.compile(r"[ \t]*(\\[ \t]+#[^\n]*)")


@dataclass
class ShellHandle(CommandHandle):
    """`command.render`'s handle, plus whether some words sit in another quoting context than
    the command (a piece of `FLAGS="..."`): then only plain words may be written there."""

    mixed: bool = False


@dataclass
class Interpreter:
    source: SourceFile
    context: ExtractContext
    kind: LaunchKind = LaunchKind.CLI
    base_hint: VersionHint | None = None
    launches: list[Launch] = field(default_factory=list)
    functions: dict[str, tuple[Node, Place]] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    depth: int = 0
    budget: int = -1
    seen: dict[tuple, int] = field(default_factory=dict)
    nesting: int = 0

    def __post_init__(self) -> None:
        if self.budget < 0:
            self.budget = _BUDGET + len(self.source.text) // 8

    # -- entry points -------------------------------------------------------------------------

    def run_script(self, place: Place, worlds: list[World]) -> list[World]:
        return self.block(place.parsed.root.children, place, worlds)

    def finish(self, worlds: list[World]) -> None:
        """Functions nobody in the file calls: read them once, their arguments unknown."""
        for name, (body, place) in list(self.functions.items()):
            if name not in self.calls:
                self.calls[name] = 1
                self.statement(body, place, [world.copy(positional=None) for world in worlds])

    # -- statements ---------------------------------------------------------------------------

    def block(self, nodes: Iterable[Node], place: Place, worlds: list[World]) -> list[World]:
        nodes = list(nodes)
        for index, node in enumerate(nodes):
            if not node.is_named or node.type in ("comment", "heredoc_body"):
                continue
            background = index + 1 < len(nodes) and nodes[index + 1].type == "&"
            if background:
                self.statement(node, place, [world.copy() for world in worlds])
            else:
                worlds = self.statement(node, place, worlds)
        return worlds

    def statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        self.budget -= 1
        if self.budget < 0 or not worlds:
            return worlds
        if node.type == "ERROR" or self.nesting >= _MAX_NESTING:
            return [world.forget() for world in worlds]
        handler: Callable[[Node, Place, list[World]], list[World]] | None = getattr(self, "_" + node.type, None)
        if handler is None:
            return worlds
        self.nesting += 1
        try:
            return handler(node, place, worlds)
        finally:
            self.nesting -= 1

    def _program(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        return self.block(node.children, place, worlds)

    def _compound_statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        if node.children and node.children[0].type == "((":
            names = {place.parsed.source(n) for n in descendants(node) if n.type == "variable_name"}
            return [world.kill(names) for world in worlds]
        return self.block(node.children, place, worlds)

    _do_group = _compound_statement

    def _subshell(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        self.block(node.children, place, [world.copy() for world in worlds])
        return worlds

    def _pipeline(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        for child in node.named_children:
            self.statement(child, place, [world.copy() for world in worlds])
        return worlds

    def _negated_command(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        return self.block(node.children, place, worlds)

    def _redirected_statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        body = node.child_by_field_name("body")
        if body is not None:
            worlds = self.statement(body, place, worlds)
        for redirect in node.children_by_field_name("redirect"):
            if body is not None and body.type == "command" and redirect.type in ("heredoc_redirect", "herestring_redirect"):
                self._fed_script(body, redirect, place, worlds)
        return worlds

    def _list(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        """`a && b`, `a || b`: `b` runs only on some paths."""
        children = node.children
        left, operator, right = children[0], children[1].type if len(children) > 2 else "&&", children[-1]
        worlds = self.statement(left, place, worlds)
        verdict = outcome(left, place, worlds[0]) if len(worlds) == 1 else None
        if verdict is not None and (verdict if operator == "&&" else not verdict):
            return self.statement(right, place, worlds)
        if verdict is not None:
            return worlds
        text = code(place.parsed.source(left))
        taken = f"{text} succeeds" if operator == "&&" else f"{text} fails"
        skipped = f"{text} fails" if operator == "&&" else f"{text} succeeds"
        ran = self.statement(right, place, [world.copy(conditions=(*world.conditions, taken)) for world in worlds])
        return join([*ran, *(world.copy(conditions=(*world.conditions, skipped)) for world in worlds)])

    def _if_statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        branches = if_branches(node)
        results: list[World] = []
        earlier: list[str] = []
        remaining = worlds
        for condition, body in branches:
            if condition is None:
                results.extend(self._branch(body, place, remaining, [f"not {c}" for c in earlier]))
                remaining = []
                break
            remaining = self.block(condition, place, remaining)
            verdict = statements_outcome(condition, place, remaining)
            text = code(" ".join(place.parsed.source(c) for c in condition if c.type not in (";", "&", "\n")))
            if verdict is True:
                results.extend(self._branch(body, place, remaining, []))
                remaining = []
                break
            if verdict is None:
                results.extend(self._branch(body, place, remaining, [*(f"not {c}" for c in earlier), text]))
                earlier.append(text)
        if remaining:
            results.extend(world.copy(conditions=(*world.conditions, *(f"not {c}" for c in earlier))) for world in remaining)
        return join(results) or worlds

    def _branch(self, body: list[Node], place: Place, worlds: list[World], conditions: list[str]) -> list[World]:
        entered = [world.copy(conditions=(*world.conditions, *conditions)) for world in worlds]
        after = self.block(body, place, entered)
        return [] if exits(body, place) else after

    def _case_statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        value_node = node.child_by_field_name("value")
        items = [child for child in node.named_children if child.type == "case_item"]
        if value_node is None:
            return worlds
        results: list[World] = []
        for world in worlds:
            fields = Expander(place, world.scope(), words_of(place, node)).fields(value_node)
            subject = fields[0].text if len(fields) == 1 else None
            results.extend(self._case_world(items, place, world, subject, code(place.parsed.source(value_node))))
        return join(results) or worlds

    def _case_world(self, items: list[Node], place: Place, world: World, subject: str | None, shown: str) -> list[World]:
        results: list[World] = []
        patterns_before: list[str] = []
        matched_all = False
        for item in items:
            patterns = [place.parsed.source(p) for p in item.children_by_field_name("value")]
            body = [child for child in item.named_children if child not in item.children_by_field_name("value")]
            verdicts = [matches(p.strip("'\""), subject) if subject is not None and not dynamic(p) else None for p in patterns]
            if any(v is True for v in verdicts) and all(v is not None for v in verdicts[: verdicts.index(True)]):
                results.extend(self._branch(body, place, [world], []))
                return results
            if all(v is False for v in verdicts):
                continue
            if patterns == ["*"]:
                condition = f"{shown} matches none of {', '.join(patterns_before)}" if patterns_before else ""
                results.extend(self._branch(body, place, [world], [condition] if condition else []))
                matched_all = True
                break
            results.extend(self._branch(body, place, [world], [f"{shown} matches `{'|'.join(patterns)}`"]))
            patterns_before.append(f"`{'|'.join(patterns)}`")
        if not matched_all:
            shown_patterns = ", ".join(patterns_before)
            results.append(world.copy(conditions=(*world.conditions, f"{shown} matches none of {shown_patterns}")) if shown_patterns else world)
        return results

    def _loop(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        names = self.assigned_names(node, place)
        worlds = [world.kill(names) for world in worlds]
        for child in node.named_children:
            if child.type not in ("variable_name", "comment"):
                self.statement(child, place, [world.copy() for world in worlds])
        return worlds

    _while_statement = _loop
    _for_statement = _loop
    _c_style_for_statement = _loop

    def _function_definition(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is not None and body is not None:
            self.functions[place.parsed.source(name)] = (body, place)
        return worlds

    # -- assignments --------------------------------------------------------------------------

    def _variable_assignment(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        return [self.assign(node, place, world, statement=node) for world in worlds]

    def _variable_assignments(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        for child in node.named_children:
            if child.type == "variable_assignment":
                worlds = [self.assign(child, place, world, statement=node) for world in worlds]
        return worlds

    def _declaration_command(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        keyword = node.children[0].type if node.children else ""
        options = "".join(place.parsed.source(c) for c in node.named_children if c.type == "word" and place.parsed.source(c).startswith(("-", "+")))
        export = keyword == "export" or ("x" in options and keyword in ("declare", "typeset"))
        unexport = keyword == "export" and "n" in options
        local = keyword == "local" or (keyword in ("declare", "typeset") and "g" not in options)
        targets = [c for c in node.named_children if c.type in ("variable_assignment", "variable_name")]
        dynamic_names = any(c.type not in ("variable_assignment", "variable_name", "word", "comment") for c in node.named_children)
        if dynamic_names:  # `export $(cat .env | xargs)`: any variable, any value
            return [world.forget() for world in worlds]
        result = []
        for world in worlds:
            for target in targets:
                name_node = target if target.type == "variable_name" else target.child_by_field_name("name")
                name = place.parsed.source(name_node) if name_node is not None else ""
                if local and world.frames:
                    world = make_local(world, name)
                if target.type == "variable_assignment":
                    world = self.assign(target, place, world, statement=node, export=export and not unexport, single=len(targets) == 1)
                elif export and not unexport:
                    world = export_name(world, name)
                if unexport:
                    world = world.copy(exported=world.exported - {name})
                    world.env.pop(name, None)
            result.append(world)
        return result

    def _unset_command(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        names = [place.parsed.source(c) for c in node.named_children if c.type in ("variable_name", "word")]
        result = []
        for world in worlds:
            world = world.copy()
            for name in names:
                if name.startswith("-"):
                    continue
                world.variables[name] = UNSET
                world.env.pop(name, None)
                world.assigned.pop(name, None)
            result.append(world)
        return result

    def assign(self, node: Node, place: Place, world: World, statement: Node, export: bool = False, single: bool = True) -> World:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return world
        world = world.copy()
        if name_node.type == "subscript":
            return self._assign_element(name_node, value_node, place, world)
        name = place.parsed.source(name_node)
        appending = any(child.type == "+=" for child in node.children)
        expander = Expander(place, world.scope(), words_of(place, node))
        value = self._value(name, value_node, place, expander, world.variables.get(name) if appending else None, appending)
        if isinstance(value, Array) and len(value.elements) > MAX_VALUE or isinstance(value, Scalar) and len(value.chunks) > MAX_VALUE:
            # `A="$A$A"` in a loop: a value that doubles each time is unknown once it is big
            value = None
        self._substitutions(expander, place, [world])
        if value is None:
            world.variables.pop(name, None)
        else:
            world.variables[name] = value
        if name.startswith(RELEVANT_ENV):
            entry = self._env_entry(name, value, node, value_node, statement, place, single)
            world.assigned[name] = entry
            if export or world.allexport or name in world.exported:
                world.env[name] = entry
                world.exported = world.exported | {name}
            elif name not in world.env:
                # Not exported here; the caller's environment may already hold the name, and then
                # this assignment changes what commands see. Which of the two, we cannot tell.
                world.env[name] = unknown_entry(entry)
        elif export or world.allexport:
            world.exported = world.exported | {name}
        return world

    def _value(self, name: str, value_node: Node | None, place: Place, expander: Expander, previous: Value | None, appending: bool) -> Value | None:
        """A variable's new value; `+=` appends to the previous one (None: unknown)."""
        if value_node is not None and value_node.type == "array":
            start, end = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
            container = Container(("array", start), end - 1, "array", place.layers)  # closes at `)`
            expander.words = container
            elements: list[Field] = []
            for element in value_node.named_children:
                if element.type != "comment":
                    elements.extend(expander.fields(element))
            if not appending:
                return Array(tuple(elements))
            if previous is None:
                return Array((Field(None, start, start, f"${{{name}[@]}}", container, spread=True), *elements))
            if previous is UNSET:
                return Array(tuple(elements))
            before = previous.elements if isinstance(previous, Array) else (Field(previous.text, 0, 0, "", container, chunks=previous.chunks),)  # type: ignore[union-attr]
            return Array((*before, *elements))
        bare = None
        if value_node is not None:
            start, end = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
            bare = Container(("bare", start), end, "bare", place.layers)
        value = expander.value(value_node, bare)
        if not appending or value is None:
            return value
        if previous is None:
            return None
        if previous is UNSET:
            return value
        if isinstance(previous, Array):
            return None
        assert isinstance(previous, Scalar) and isinstance(value, Scalar)
        return Scalar(previous.chunks + value.chunks)

    def _assign_element(self, subscript: Node, value_node: Node | None, place: Place, world: World) -> World:
        name_node = subscript.child_by_field_name("name")
        index_node = subscript.child_by_field_name("index")
        if name_node is None:
            return world
        name = place.parsed.source(name_node)
        current = world.variables.get(name)
        index = place.parsed.source(index_node) if index_node is not None else ""
        expander = Expander(place, world.scope(), words_of(place, subscript))
        fields = expander.fields(value_node) if value_node is not None else []
        if isinstance(current, Array) and index.isdigit() and int(index) <= len(current.elements) and len(fields) == 1:
            elements = list(current.elements)
            if int(index) == len(elements):
                elements.append(fields[0])
            else:
                elements[int(index)] = fields[0]
            world.variables[name] = Array(tuple(elements))
        else:
            world.variables.pop(name, None)
        return world

    def _env_entry(self, name: str, value: Value | None, node: Node, value_node: Node | None, statement: Node, place: Place, single: bool) -> EnvEntry:
        start, end = place.range(place.parsed.start(node), place.parsed.end(node))
        if value_node is not None:
            value_start, value_end = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
        else:
            value_start = value_end = end
        text = scalar_text(value) if value is not None and not isinstance(value, Array) else None
        setting = Setting(name, UNKNOWN if text is None else text, self.span(start, end), self.source.text[start:end], self.span(value_start, value_end))
        if statement.type == "declaration_command" and not single:
            removal = self.word_removal(start, end)
        else:
            removal = self.statement_removal(*place.range(place.parsed.start(statement), place.parsed.end(statement)))
        return EnvEntry(setting, EnvPlace(removal, self.span(value_start, value_end), quoting(place.layers)) if place.starts is None or place.exact(place.parsed.start(node), place.parsed.end(node)) else None)

    # -- commands -----------------------------------------------------------------------------

    def _command(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        children = [child for child in node.children if child.type != "comment"]
        split = statement_break(children, place)
        for child in children[:split]:
            worlds = self._variable_assignment(child, place, worlds)
        children = children[split:]
        prefix = [child for child in children if child.type == "variable_assignment"]
        words = _command_words(children)
        if not words:
            for child in prefix:
                worlds = self._variable_assignment(child, place, worlds)
            return worlds
        span = self.span(*place.range(place.parsed.start(children[0]), place.parsed.end(node)))
        candidates: list[tuple[Launch, World]] = []
        results: list[World] = []
        calls: list[tuple[str, World, list[Field]]] = []
        for world in worlds:
            expander = Expander(place, world.scope(), words_of(place, node))
            fields = self.expand(words, expander, place)
            env_words = self._prefix_env(prefix, expander, place)
            self._substitutions(expander, place, [world])
            head = fields[0].text if fields else None
            if head in self.functions:
                calls.append((head, world, fields[1:]))
                continue
            world = self.builtin(head, fields, world)
            results.append(world)
            launch = self._run(fields, env_words, world, place, node, span)
            if launch is not None:
                candidates.append((launch, world))
        if candidates:
            self.emit(candidates, worlds)
        for name, world, arguments in calls:
            results.extend(self.call(name, world, arguments))
        return join(results) if calls else results

    def _run(self, fields: list[Field], env_words: list[EnvWord], world: World, place: Place, node: Node, span: Span) -> Launch | None:
        """What a command starts: a vLLM launch, or a shell script read in its turn."""
        started = find(fields)
        if isinstance(started, ShellScript):
            self.shell_script(started, env_words, world)
        if not isinstance(started, Invocation):
            return None
        launch = self.launch(started, env_words, world, place, node, span)
        return None if launch is None else self._broken_continuation(launch, place, node)

    def expand(self, words: list[Node], expander: Expander, place: Place) -> list[Field]:
        fields: list[Field] = []
        for word in words:
            produced = expander.fields(word)
            variable = single_variable(word, place)
            if variable is not None and len(produced) == 1:
                produced = [replace(produced[0], variable=variable)]
            fields.extend(produced)
        return fields

    def _prefix_env(self, prefix: list[Node], expander: Expander, place: Place) -> list[EnvWord]:
        found = []
        for node in prefix:
            name_node = node.child_by_field_name("name")
            value_node = node.child_by_field_name("value")
            if name_node is None or name_node.type != "variable_name":
                continue
            name = place.parsed.source(name_node)
            value = expander.value(value_node)
            text = scalar_text(value) if value is not None else None
            start, end = place.range(place.parsed.start(node), place.parsed.end(node))
            if value_node is not None:
                value_span: tuple[int, int] | None = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
            else:
                value_span = (end, end)
            word = Field(text, start, end, self.source.text[start:end], expander.words)
            found.append(EnvWord(name, text, (word,), value_span if place.exact(place.parsed.start(node), place.parsed.end(node)) else None))
        return found

    def _substitutions(self, expander: Expander, place: Place, worlds: list[World]) -> None:
        """Commands inside `$(...)` and `<(...)` run too (in a subshell)."""
        found, expander.substitutions = expander.substitutions, []
        for node in found:
            self.block(node.children, place, [world.copy() for world in worlds])

    def builtin(self, head: str | None, fields: list[Field], world: World) -> World:
        """What builtins do to the shell's state; other commands leave it alone."""
        arguments = fields[1:]
        if head == "set":
            return set_builtin(world, arguments)
        if head == "shift":
            if world.positional is None:
                return world
            count = int(arguments[0].text) if arguments and arguments[0].text and arguments[0].text.isdigit() else 1
            return world.copy(positional=world.positional[count:])
        if head in ("source", "."):
            path = arguments[0].text if arguments else None
            if path is not None and _HARMLESS_SOURCE.search(path):
                return world
            return world.forget()
        if head == "eval":
            return self.eval(arguments, world)
        if head in ("read", "mapfile", "readarray", "getopts", "let", "printf", "wait"):
            return world.kill(_assigned_by(head, arguments))
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
                hint = VersionHint((str(release),), f"pip install {word.text}", self.span(word.start, word.end))
                return world.copy(pin=hint)
        return world

    def eval(self, arguments: list[Field], world: World) -> World:
        """`eval WORDS`: the words joined by spaces run as a script in this shell."""
        nested = assemble(arguments, self.depth) if arguments and self.depth < _MAX_DEPTH else None
        if nested is None:
            return world.forget()
        with self.deeper():
            worlds = self.run_script(nested, [world])
        return worlds[0] if len(worlds) == 1 else collapse(worlds)

    @contextlib.contextmanager
    def deeper(self) -> Iterator[None]:
        """One more script or function call inside another (bounded by `_MAX_DEPTH`)."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def call(self, name: str, world: World, arguments: list[Field]) -> list[World]:
        body, place = self.functions[name]
        self.calls[name] = self.calls.get(name, 0) + 1
        if self.depth >= _MAX_DEPTH or self.calls[name] > _MAX_CALLS:
            return [world.kill(self.assigned_names(body, place))]
        frame = Frame((), world.positional)
        entered = world.copy(positional=tuple(arguments) if len(arguments) <= MAX_VALUE else None, frames=(*world.frames, frame))
        with self.deeper():
            after = self.statement(body, place, [entered])
        return [leave(result) for result in after]

    # -- scripts inside strings ---------------------------------------------------------------

    def shell_script(self, outcome: ShellScript, env_words: list[EnvWord], world: World) -> None:
        """`bash -c SCRIPT NAME ARGS...`: a new shell that inherits only exported variables."""
        if self.depth >= _MAX_DEPTH:
            return
        nested = assemble([outcome.script], self.depth)
        if nested is None:
            return
        env = self._command_env(world, env_words, outcome.found)
        inner = child_shell(world, env, tuple(outcome.positional[1:]), world.env_open or outcome.found.env_open)
        for word in env_words:
            if word.value is not None:
                inner.variables[word.name] = Scalar((Chunk(word.value, word.words[0].start, word.words[0].end, False, True, False, None),))
        with self.deeper():
            self.run_script(nested, [inner])

    def _fed_script(self, command: Node, redirect: Node, place: Place, worlds: list[World]) -> None:
        """`bash <<EOF ... EOF`, `bash -s <<< "..."`: the text fed to a shell is a script."""
        name = command.child_by_field_name("name")
        if name is None or place.parsed.source(name).rsplit("/", 1)[-1] not in _SHELLS:
            return
        arguments = [place.parsed.source(a) for a in command.children_by_field_name("argument")]
        if any(not argument.startswith(("-", "+")) or "c" in argument for argument in arguments if argument != "--"):
            return
        if self.depth >= _MAX_DEPTH:
            return
        for world in worlds:
            nested = heredoc(redirect, place, world, self.depth) if redirect.type == "heredoc_redirect" else herestring(redirect, place, world, self.depth)
            if nested is None:
                continue
            with self.deeper():
                self.run_script(nested, [child_shell(world, dict(world.env), None, world.env_open)])

    # -- launches -----------------------------------------------------------------------------

    def launch(self, invocation: Invocation, env_words: list[EnvWord], world: World, place: Place, node: Node, span: Span) -> Launch | None:
        if place.parsed.root.has_error and touches_error(node):
            return None
        args = invocation.args
        tokens = [Token(None if f.spread else f.text, self.span(f.start, f.end), f.raw, spread=f.spread) for f in args]
        containers: dict[Container, int] = {}
        for word in args:
            containers.setdefault(word.container, len(containers))
        elements = Sequence(
            tuple((f.start, f.end) for f in args),
            None,
            " ",
            groups=tuple(containers[f.container] for f in args),
            closes=tuple(container.close for container in containers),
        )
        env = self._command_env(world, env_words, invocation.found)
        hint = self._hint(invocation, world)
        release = Release.parse(hint.releases[0]) if hint is not None else None
        command_layers = words_of(place, node).layers
        launch = command_launch(
            self.kind,
            span,
            tokens,
            elements,
            WordSyntax(quoting(command_layers), " ", " \\"),
            env={name: entry.setting for name, entry in env.items()},
            env_places={name: entry.place for name, entry in env.items() if entry.place is not None},
            release=release,
            load_config=self._config_loader(),
            entrypoint=invocation.entrypoint,
            version_hint=hint,
            label=invocation.label,
        )
        if launch is None:
            return None
        editable = "?" not in command_layers and not any(f.shared for f in args) and not _overlapping(args)
        handle = None
        if editable and launch.handle is not None:
            handle = ShellHandle(**{**vars(launch.handle), "config_render": _config_render()}, mixed=any(f.container.layers != command_layers for f in args))
        return replace(launch, env_open=world.env_open or invocation.found.env_open, handle=handle)

    def _broken_continuation(self, launch: Launch, place: Place, node: Node) -> Launch:
        """`--flag \\  # comment`: the backslash escapes a space, the comment ends the command,
        and the next line runs as a command of its own. Recorded as an issue of the launch."""
        end = place.parsed.end(node)
        match = _BROKEN_CONTINUATION.match(place.parsed.text, end)
        if match is None or not place.exact(end, match.end()):
            return launch
        start, stop = place.range(match.start(1), match.end())
        detail = "a backslash followed by a space and a comment does not continue the line; the next line is a separate command"
        issue = ArgIssue("broken-continuation", self.span(start, stop), self.source.text[start:stop], "", detail)
        return replace(launch, issues=(*launch.issues, issue))

    def _config_loader(self) -> Callable[[str, Token], list[Token] | None] | None:
        """`--config FILE.yaml`: read by the YAML frontend, next to this file."""
        try:
            from ..vllm_config import load_config_tokens
        except ImportError:
            return None
        return lambda path, token: load_config_tokens(path, token, self.context, self.source.path)

    def _hint(self, invocation: Invocation, world: World) -> VersionHint | None:
        image = invocation.found.image
        if image is not None:
            release = image_release(image)
            if release is None:
                return None
            return VersionHint((release,), f"image {image.text}", self.span(image.start, image.end))
        return world.pin or self.base_hint

    def _command_env(self, world: World, env_words: list[EnvWord], found: Any) -> dict[str, EnvEntry]:
        """The `VLLM_*` variables a command sees: exported ones, prefixes, wrapper settings."""
        env = {name: entry for name, entry in world.env.items() if name.startswith(RELEVANT_ENV)}
        for word in env_words:
            if word.name.startswith(RELEVANT_ENV):
                env[word.name] = self._word_entry(word, env.get(word.name))
        mode = found.env_mode
        if mode in ("clear", "container"):
            env = {}
        elif mode == "reset":
            env = {name: unknown_entry(entry) for name, entry in env.items()}
        for path in found.env_files:  # docker: `-e` over `--env-file`, later files over earlier
            settings = self._env_file(path)
            if settings is None:
                found.env_open = True
                continue
            env.update((name, EnvEntry(setting, None)) for name, setting in settings.items() if name.startswith(RELEVANT_ENV))
        for word in found.env_words:
            if not word.name.startswith(RELEVANT_ENV):
                continue
            if word.unset:
                env.pop(word.name, None)
            else:
                env[word.name] = self._word_entry(word, env.get(word.name) if mode not in ("container",) else world.env.get(word.name))
        return env

    def _env_file(self, path: str) -> dict[str, Setting] | None:
        """`docker run --env-file PATH`: docker reads it from the directory it runs in, which is
        not known; looked for next to the script, then from where replaylint runs."""
        from ..env_file import parse

        candidates = [os.path.normpath(os.path.join(os.path.dirname(self.source.path), path)), os.path.normpath(path)]
        for candidate in dict.fromkeys(candidates) if not os.path.isabs(path) else ():
            text = self.context.read_text(candidate)
            if text is not None:
                return parse(candidate, text)
        return None

    def _word_entry(self, word: EnvWord, inherited: EnvEntry | None) -> EnvEntry:
        first, last = word.words[0], word.words[-1]
        span = self.span(first.start, last.end)
        spelling = " ".join(w.raw for w in word.words)
        if word.value is None:
            value = inherited.setting.value if inherited is not None else UNKNOWN
            return EnvEntry(Setting(word.name, value, span, spelling), EnvPlace(self.word_removal(first.start, last.end), None))
        value_span = self.span(*word.value_span) if word.value_span is not None else None
        setting = Setting(word.name, word.value, span, spelling, value_span)
        return EnvEntry(setting, EnvPlace(self.word_removal(first.start, last.end), value_span, quoting(first.container.layers)))

    def emit(self, candidates: list[tuple[Launch, World]], worlds: list[World]) -> None:
        """One launch per distinct variant; a variant seen on only some paths says which.

        A launch read again with the same facts (a function called twice) is kept once."""
        groups: dict[tuple, list[tuple[Launch, World]]] = {}
        for launch, world in candidates:
            groups.setdefault(_identity(launch), []).append((launch, world))
        for identity, members in groups.items():
            launch = members[0][0]
            condition = None if len(members) == len(worlds) else describe([world for _, world in members])
            if identity in self.seen:
                index = self.seen[identity]
                if self.launches[index].condition != condition:
                    self.launches[index] = replace(self.launches[index], condition=None)
                continue
            self.seen[identity] = len(self.launches)
            self.launches.append(replace(launch, condition=condition))

    # -- spans --------------------------------------------------------------------------------

    def span(self, start: int, end: int) -> Span:
        return self.source.index.span(start, end)

    def statement_removal(self, start: int, end: int) -> Span:
        """The text to delete to remove a statement: its whole line(s) when it is alone there."""
        text = self.source.text
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end == -1 else line_end
        before, after = text[line_start:start], text[end:line_end]
        if not before.strip() and (not after.strip() or after.strip().startswith("#")) and not after.rstrip().endswith("\\"):
            return self.span(line_start, min(len(text), line_end + 1))
        following = re.match(r"\s*(;|&&)?[ \t]*", text[end:line_end])
        if following and following.group(1):
            return self.span(start, end + following.end())
        return self.word_removal(start, end)

    def word_removal(self, start: int, end: int) -> Span:
        """A word (or words) and the blank that separates it from the next one."""
        text = self.source.text
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        if line_end != -1 and not text[line_start:start].strip() and text[end:line_end].strip() == "\\" and line_start > 0 and text[line_start - 2 : line_start] == "\\\n":
            return self.span(line_start, line_end + 1)  # alone on a continued line: drop the line
        following = re.match(r"[ \t]+|[ \t]*\\\n[ \t]*", text[end:])
        if following and end + following.end() < len(text) and text[end + following.end()] not in "\n;&|)":
            return self.span(start, end + following.end())
        preceding = re.search(r"[ \t]+$", text[:start])
        if preceding:
            return self.span(preceding.start(), end)
        return self.span(start, end)

    def assigned_names(self, node: Node, place: Place) -> set[str]:
        """Every variable a piece of script may assign (for loops), through called functions."""
        names: set[str] = set()
        seen_functions: set[str] = set()
        pending = [node]
        while pending:
            current = pending.pop()
            for child in (current, *descendants(current)):
                if child.type == "variable_assignment":
                    name = child.child_by_field_name("name")
                    if name is not None:
                        names.add(place.parsed.source(name if name.type == "variable_name" else (name.child_by_field_name("name") or name)))
                elif child.type == "for_statement":
                    variable = child.child_by_field_name("variable")
                    if variable is not None:
                        names.add(place.parsed.source(variable))
                elif child.type in ("unset_command", "declaration_command"):
                    names.update(place.parsed.source(c) for c in child.named_children if c.type == "variable_name")
                elif child.type == "command":
                    words = [place.parsed.source(c) for c in child.named_children if c.type in ("command_name", "word")]
                    if words and words[0] in ("read", "mapfile", "readarray", "getopts", "printf", "let"):
                        names.update(word for word in words[1:] if _IDENTIFIER.match(word))
                    if words and words[0] in self.functions and words[0] not in seen_functions:
                        seen_functions.add(words[0])
                        pending.append(self.functions[words[0]][0])
                    if words and words[0] in ("source", ".", "eval"):
                        names.add("*")
                elif child.type == "compound_statement" and child.children and child.children[0].type == "((":
                    names.update(place.parsed.source(n) for n in descendants(child) if n.type == "variable_name")
        return names


# -- helpers ----------------------------------------------------------------------------------


def _assigned_by(builtin: str, arguments: list[Field]) -> list[str]:
    """Variables `read`, `mapfile`, `getopts`, `let`, `printf -v`, `wait -p` assign."""
    texts = [argument.text or "" for argument in arguments]
    if builtin in ("printf", "wait"):
        option = "-v" if builtin == "printf" else "-p"
        return [texts[i + 1] for i, text in enumerate(texts[:-1]) if text == option]
    if builtin == "let":
        return [re.split(r"[^A-Za-z0-9_]", text)[0] for text in texts]
    return [text for text in texts if _IDENTIFIER.match(text)]


def _command_words(children: list[Node]) -> list[Node]:
    """The words of a command (its name first), without prefix assignments and redirections."""
    skipped = ("variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect")
    words = [child for child in children if child.is_named and child.type not in skipped]
    return [child.named_children[0] if child.type == "command_name" and child.named_children else child for child in words]


def _config_render() -> Callable | None:
    try:
        from ..vllm_config import config_render
    except ImportError:
        return None
    return config_render


def _overlapping(fields: list[Field]) -> bool:
    """Words that share text (all of `bash -c "$CMD"`): an edit of one would change others."""
    spans = sorted((f.start, f.end) for f in fields if f.end > f.start)
    return any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:]))


def _identity(launch: Launch) -> tuple:
    """What makes two variants of a launch different for the rules."""
    settings = tuple(
        (name, repr(setting.value), setting.span, repr(sorted(setting.keys.items())) if setting.keys else "")
        for name, setting in sorted(launch.settings.items())
        if name in FIELDS
    )
    env = tuple(sorted((name, repr(setting.value), setting.span) for name, setting in launch.env.items()))
    hint = launch.version_hint.releases if launch.version_hint else ()
    return (launch.span, settings, env, launch.issues, launch.open_ended, launch.env_open, hint)


