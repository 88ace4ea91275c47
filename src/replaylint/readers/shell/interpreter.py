"""Reading a script in the order bash runs it, to know what every command receives.

The reader keeps a `World` per run-time path it cannot tell apart: variables (absent = unknown,
they may come from the environment), arrays, exported `VLLM_*` variables, positional
parameters. Assignments change it in order, so a variable assigned twice has its latest value.
`if`/`case`/`&&`/`||` branches that change variables fork the world (up to `MAX_WORLDS`; past
that, variables that differ become unknown); loops make what they assign unknown; subshells,
pipelines and background jobs work on a copy; `source`/`eval` of something we cannot read
makes every variable unknown (not the positional parameters: such files set variables, they do
not `set --`). Functions run where they are called, with the call's words as
`$@` (a function whose body was never read runs once at the end with unknown arguments). A
script file's own `$@` is its forwarded arguments (`world.ARGUMENTS`). A default (`${X:-v}`)
of a variable nothing the script runs sets is taken for a launch's words on a condition
("`X` is unset"); the launch is built again without it to tell what rests on it
(`_assumptions`). Other commands, and `if`/`case` tests, read words without defaults.
Limits: statements nested `control.MAX_NESTING` deep, scripts inside scripts
`MAX_SCRIPT_DEPTH` deep, function calls `MAX_CALL_DEPTH` deep; what lies beyond one is not read
and is reported (`ExtractContext.not_entered`, RPL902), and so is a value of more than
`world.MAX_VALUE` pieces (`world.fitted`) that a launch reads. Every statement and word is charged to
the file's `Budget`.

A command that starts vLLM becomes one `Launch` per world; variants that agree on every
replay-relevant fact are merged, and the ones that differ carry `condition` ("when `...`").
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import NamedTuple

from ...model import UNKNOWN, Assumption, Launch, LaunchKind, Span, VersionHint
from ...records import record
from ...shells import SHELLS
from ...source import ExtractContext, SourceFile
from ...vllm.engine_fields import FIELDS
from .assignments import assign_element, assigned_value, env_entry, script_assigns
from .builtin_commands import BuiltinCommands
from .control import ControlFlow
from .expand import Expander
from .grammar import Node
from .launch import LaunchBuilder
from .launchers import EnvWord, Found, Invocation, find
from .nodes import single_variable, statement_break, words_of
from .place import Place
from .ray_jobs import started_cluster
from .script_files import ScriptFile, ScriptFiles, ShellScript
from .scripts import assemble, heredoc, herestring
from .spans import ScriptSpans
from .values import NO_DEFAULTS, UNSET, Assumed, Chunk, Field, Scalar, scalar_text
from .world import (
    OVERSIZED,
    TOO_BIG,
    World,
    child_shell,
    describe,
    export_name,
    fitted,
    join,
    make_local,
    relevant_env,
    unknown_entry,
)

_FIELD_COST = 40  # budget units (about a microsecond each) a command word costs: fields, then vLLM's parser


@record
class Interpreter(ControlFlow, ScriptFiles, BuiltinCommands):
    """Reads a script statement by statement (see the module docstring)."""

    source: SourceFile
    context: ExtractContext
    kind: LaunchKind = LaunchKind.CLI
    base_hint: VersionHint | None = None
    launches: list[Launch] = field(default_factory=list)
    functions: dict[str, tuple[Node, Place]] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    depth: int = 0  # scripts inside scripts
    call_depth: int = 0  # function calls inside function calls
    seen: dict[tuple, int] = field(default_factory=dict)
    entered: set[str] = field(default_factory=set)  # functions whose body was read
    call_sites: set[int] = field(default_factory=set)  # offsets of the function calls read
    launching: set[str] = field(default_factory=set)  # functions whose body started vLLM
    emitted: int = 0  # launch variants read so far
    nesting: int = 0
    alone: dict[str, set[tuple]] = field(default_factory=dict)  # script files' launches read on their own
    anchor: int | None = None  # a script file's: the call in the checked file that runs it
    spans: ScriptSpans = field(init=False)
    builder: LaunchBuilder = field(init=False)

    def __post_init__(self) -> None:
        self.spans = ScriptSpans(self.source)
        self.builder = LaunchBuilder(self.source, self.context, self.kind, self.base_hint, self.spans)

    # -- entry points -------------------------------------------------------------------------

    def run_script(self, place: Place, worlds: list[World]) -> list[World]:
        if any(world.assigns is not None for world in worlds):
            names = script_assigns(place.parsed.root, place)
            worlds = [world if world.assigns is None else world.copy(assigns=world.assigns | names) for world in worlds]
        return self.block(place.parsed.root.children, place, worlds)

    def finish(self, worlds: list[World]) -> None:
        """Functions whose body was never read (nobody calls them, or only from deeper than
        `MAX_CALL_DEPTH`): read them once, their arguments unknown."""
        for name, (body, place) in list(self.functions.items()):
            if name not in self.entered:
                self.entered.add(name)
                self.calls[name] = self.calls.get(name, 0) + 1
                self.statement(body, place, [world.copy(positional=None) for world in worlds])

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
        options = "".join(
            place.parsed.source(c) for c in node.named_children if c.type == "word" and place.parsed.source(c).startswith(("-", "+"))
        )
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
            return assign_element(name_node, value_node, place, world)
        name = place.parsed.source(name_node)
        appending = any(child.type == "+=" for child in node.children)
        expander = Expander(place, world.scope(), words_of(place, node))
        value = fitted(assigned_value(name, value_node, place, expander, world.variables.get(name) if appending else None, appending))
        if value is OVERSIZED or expander.oversized:  # `A="$A $A"` thirteen times: unknown, and said where it is read
            at = expander.oversized[0] if expander.oversized else place.range(place.parsed.start(node), place.parsed.start(node))[0]
            world.oversized = {**world.oversized, name: at}
            value = None
        elif name in world.oversized:
            world.oversized = {other: at for other, at in world.oversized.items() if other != name}
        self._substitutions(expander, place, [world])
        if value is None:
            world.variables.pop(name, None)
        else:
            world.variables[name] = value
        if relevant_env(name):
            entry = env_entry(self.spans, name, value, node, value_node, statement, place, single)
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
        span = self.spans.span(*place.range(place.parsed.start(children[0]), place.parsed.end(node)))
        candidates: list[tuple[Launch, World]] = []
        results: list[World] = []
        calls: list[tuple[str, World, list[Field], int]] = []
        for world in worlds:
            expander = Expander(place, world.scope(), words_of(place, node))
            fields = self.expand(words, expander, place)
            env_words = self._prefix_env(prefix, expander, place)
            self._substitutions(expander, place, [world])
            # Defaults are taken for a launch only: anything else reads the words without them.
            command = _Command(words, prefix, place, node, span)
            plain = self._without(NO_DEFAULTS, command, world)[0] if expander.assumed else fields
            head = plain[0].text if plain else None
            if head in self.functions:
                calls.append((head, world, plain[1:], plain[0].start))
                continue
            world = started_cluster(plain, world, lambda world=world: self.builder.command_env(world, env_words, Found()))
            world = self.builtin(head, plain, world)
            results.append(world)
            launch = self._run(fields, env_words, world, place, node, span, plain)
            if launch is not None and expander.oversized:
                self.context.not_entered(TOO_BIG, expander.oversized[0])
            if launch is not None and (expander.assumed or any(setting.condition for setting in launch.env.values())):
                launch = self._assumptions(launch, expander.assumed, fields, env_words, world, command)
            if launch is not None:
                candidates.append((launch, world))
        if candidates:
            self.emit(candidates, worlds)
        for name, world, arguments, offset in calls:
            results.extend(self.call(name, world, arguments, offset))
        return join(results) if calls else results

    def _run(
        self, fields: list[Field], env_words: list[EnvWord], world: World, place: Place, node: Node, span: Span, plain: list[Field]
    ) -> Launch | None:
        """What a command starts: a vLLM launch, or a shell script read in its turn (its words
        without defaults taken: `plain`)."""
        started = find(fields)
        if not isinstance(started, Invocation):
            started = find(plain) if plain is not fields else started
            if isinstance(started, ShellScript):
                self.shell_script(started, env_words, world)
            elif isinstance(started, ScriptFile):
                self.run_file(started.path, started.arguments, self._inner(started, env_words, world), started.by_path)
            elif plain and plain[0].text == "curl":
                self.builder.curl(plain, span)
            return None
        return self._launch(started, env_words, world, place, node, span)

    def _launch(self, started: Invocation, env_words: list[EnvWord], world: World, place: Place, node: Node, span: Span) -> Launch | None:
        launch = self.builder.build(started, env_words, world, place, node, span)
        return None if launch is None else self.builder.broken_continuation(launch, place, node)

    def _without(self, off: object, command: _Command, world: World) -> tuple[list[Field], list[EnvWord]]:
        """The words of a command without the defaults `off` (all: NO_DEFAULTS), as they are when
        the variables they stand in for are set."""
        expander = Expander(command.place, world.scope(off=off), words_of(command.place, command.node))
        return self.expand(command.words, expander, command.place), self._prefix_env(command.prefix, expander, command.place)

    def _assumptions(
        self, launch: Launch, taken: dict[Assumed, bool], fields: list[Field], env_words: list[EnvWord], world: World, command: _Command
    ) -> Launch:
        """What of a launch rests on the defaults it was built with (`Assumption`): the words they
        gave; the launch itself, when without them there is none; its completeness, when without
        them it is open-ended (an unquoted default, set otherwise, may add any words)."""
        found: list[Assumption] = []
        for word in [*fields, *(word for env_word in env_words for word in env_word.words)]:
            for assumed in dict.fromkeys(c.assumed for c in word.chunks if isinstance(c, Chunk) and c.assumed is not None):
                found.append(Assumption(assumed.condition, self.spans.span(word.start, word.end), positional=assumed.positional))
        for setting in launch.env.values():
            if setting.condition is not None:  # `export VLLM_...=${X:-0}` before the command
                found.append(Assumption(setting.condition, setting.span))
        without = self._rebuilt(set(taken), world, command) if taken else launch
        if without is None:
            needed = [assumed for assumed in taken if self._rebuilt({assumed}, world, command) is None] or list(taken)
            found += [Assumption(assumed.condition, whole=True, positional=assumed.positional) for assumed in needed]
        elif without.open_ended and not launch.open_ended:
            unquoted = [assumed for assumed, bare in taken.items() if bare] or list(taken)
            found += [Assumption(assumed.condition, positional=assumed.positional) for assumed in unquoted]
        return replace(launch, assumptions=tuple(dict.fromkeys(found)))

    def _rebuilt(self, off: set[Assumed], world: World, command: _Command) -> Launch | None:
        """The launch of a command without the defaults `off`."""
        fields, env_words = self._without(frozenset(off), command, world)
        started = find(fields)
        if not isinstance(started, Invocation):
            return None
        return self._launch(started, env_words, world, command.place, command.node, command.span)

    def expand(self, words: list[Node], expander: Expander, place: Place) -> list[Field]:
        fields: list[Field] = []
        for word in words:
            produced = expander.fields(word)
            self.context.budget.charge(_FIELD_COST * len(produced))
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
            chunks = value.chunks if isinstance(value, Scalar) else ()
            word = Field(text, start, end, self.source.text[start:end], expander.words, chunks=chunks)
            found.append(
                EnvWord(
                    name,
                    UNKNOWN if text is None else text,
                    (word,),
                    value_span if place.exact(place.parsed.start(node), place.parsed.end(node)) else None,
                )
            )
        return found

    def _substitutions(self, expander: Expander, place: Place, worlds: list[World]) -> None:
        """Commands inside `$(...)` and `<(...)` run too (in a subshell)."""
        found, expander.substitutions = expander.substitutions, []
        for node in found:
            self.block(node.children, place, [world.copy() for world in worlds])

    # -- scripts inside strings ---------------------------------------------------------------

    def shell_script(self, outcome: ShellScript, env_words: list[EnvWord], world: World) -> None:
        """`bash -c SCRIPT NAME ARGS...`: a new shell that inherits only exported variables."""
        if not self.can_enter_script(outcome.script.start, "a `-c` script"):
            return
        nested = assemble([outcome.script], self.depth, self.context.budget)
        if nested is None:
            return
        inner = self._inner(outcome, env_words, world)
        with self.deeper():
            self.run_script(nested, [inner.copy(positional=tuple(outcome.positional[1:]))])

    def _inner(self, outcome: ShellScript | ScriptFile, env_words: list[EnvWord], world: World) -> World:
        """The world of a new shell a command starts: exported variables, the command's prefixes."""
        env = self.builder.command_env(world, env_words, outcome.found)
        inner = child_shell(world, env, (), world.env_open or outcome.found.env_open)
        for word in env_words:
            if isinstance(word.value, str):
                inner.variables[word.name] = Scalar((Chunk(word.value, word.words[0].start, word.words[0].end, False, True, False, None),))
            elif word.value is UNKNOWN:
                inner.variables.pop(word.name, None)
        return inner

    def _fed_script(self, command: Node, redirect: Node, place: Place, worlds: list[World]) -> None:
        """`bash <<EOF ... EOF`, `bash -s <<< "..."`: the text fed to a shell is a script."""
        name = command.child_by_field_name("name")
        if name is None or place.parsed.source(name).rsplit("/", 1)[-1] not in SHELLS:
            return
        arguments = [place.parsed.source(a) for a in command.children_by_field_name("argument")]
        if any(not argument.startswith(("-", "+")) or "c" in argument for argument in arguments if argument != "--"):
            return
        start = place.parsed.start(redirect)
        if not self.can_enter_script(place.range(start, start)[0], "a script fed to a shell"):
            return
        for world in worlds:
            nested = (
                heredoc(redirect, place, world, self.depth)
                if redirect.type == "heredoc_redirect"
                else herestring(redirect, place, world, self.depth)
            )
            if nested is None:
                continue
            with self.deeper():
                self.run_script(nested, [child_shell(world, dict(world.env), None, world.env_open)])

    # -- launches -----------------------------------------------------------------------------

    def emit(self, candidates: list[tuple[Launch, World]], worlds: list[World]) -> None:
        """One launch per distinct variant; a variant seen on only some paths says which.

        A launch read again with the same facts (a function called twice) is kept once."""
        self.emitted += len(candidates)
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

    def launch_identity(self, launch: Launch) -> tuple:
        return _identity(launch)


# -- helpers ----------------------------------------------------------------------------------


class _Command(NamedTuple):
    """A simple command as the interpreter reads it: its words, prefix assignments, where it is."""

    words: list[Node]
    prefix: list[Node]
    place: Place
    node: Node
    span: Span


def _command_words(children: list[Node]) -> list[Node]:
    """The words of a command (its name first), without prefix assignments and redirections."""
    skipped = ("variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect")
    words = [child for child in children if child.is_named and child.type not in skipped]
    return [child.named_children[0] if child.type == "command_name" and child.named_children else child for child in words]


def _identity(launch: Launch) -> tuple:
    """What makes two variants of a launch different for the rules."""
    settings = tuple(
        (name, repr(setting.value), setting.span, repr(sorted(setting.keys.items())) if setting.keys else "")
        for name, setting in sorted(launch.settings.items())
        if name in FIELDS
    )
    env = tuple(sorted((name, repr(setting.value), setting.span) for name, setting in launch.env.items()))
    hint = launch.version_hint.releases if launch.version_hint else ()
    return (launch.span, settings, env, launch.issues, launch.open_ended, launch.env_open, hint, launch.forwarded, launch.assumptions)
