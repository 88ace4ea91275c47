"""How bash runs compound statements, for the interpreter: lists (`&&`, `||`, `;`), pipelines,
subshells and `{ ...; }` (on a copy of the world), `if` and `case` branches (each branch
forks the worlds it changes, with the condition that selects it), loops (what they assign
becomes unknown, but a string they only append to keeps its known start), and function definitions (run where they are called). Simple commands and
assignments are the interpreter's (`interpreter.Interpreter`)."""

from __future__ import annotations

from typing import Callable, Iterable

from ...source import ExtractContext
from .assignments import appended_names, assigned_names
from .conditions import WITHOUT_ARGUMENTS, dynamic, outcome, statements_outcome, without_arguments
from .expand import Expander
from .grammar import Node
from .nodes import code, descendants, exits, if_branches, words_of
from .option_loops import kept, skipped_without_arguments
from .place import Place
from .splitting import element_chunks, matches
from .values import NO_DEFAULTS, Chunk, Container, Scalar
from .world import World, join, relevant_env

# Statements inside statements (`if` in `if`, `{ }`, loops): bash takes hundreds, scripts use a
# dozen. Deeper code is not read (Python's stack) and is reported (RPL902).
MAX_NESTING = 100
_STATEMENT_COST = 20  # budget units (about a microsecond each) a statement takes to read


class ControlFlow:
    """The statement dispatch and the compound statements of `Interpreter`."""

    context: ExtractContext
    nesting: int
    functions: dict[str, tuple[Node, Place]]
    as_written = False  # a reading of the programs a script runs as written, without arguments (`program_runs`)
    turns_around = 1  # the turns of the `for` loops read turn by turn around the statement being read, multiplied

    def _fed_script(self, command: Node, redirect: Node, place: Place, worlds: list[World]) -> None:
        raise NotImplementedError

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
        start = place.parsed.start(node)
        self.context.budget.charge(_STATEMENT_COST, place.range(start, start)[0])
        if not worlds:
            return worlds
        if node.type == "ERROR":
            return [world.forget(arguments=True) for world in worlds]
        if self.nesting >= MAX_NESTING:
            self.context.not_entered(f"statements nested deeper than {MAX_NESTING} levels are not read", place.range(start, start)[0])
            return [world.forget(arguments=True) for world in worlds]
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
            bare = without_arguments(condition, place, remaining) if verdict is None and self.as_written else None
            if bare is not None and ((bare and not exits(body, place)) or (not bare and len(branches) == 1)):
                # `NAME=default` of `[ -z "$1" ]` (a branch that exits there: the script needs its arguments, both are read)
                text = f"{text}{WITHOUT_ARGUMENTS}"
                if not bare:  # `[ -n "$1" ]` fails then: its branch is skipped
                    earlier.append(text)
                    continue
                results.extend(self._branch(body, place, remaining, [*(f"not {c}" for c in earlier), text]))
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
            fields = Expander(place, world.scope(off=NO_DEFAULTS), words_of(place, node)).fields(value_node)
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
            results.append(
                world.copy(conditions=(*world.conditions, f"{shown} matches none of {shown_patterns}")) if shown_patterns else world
            )
        return results

    def _loop(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        names = assigned_names(node, place, self.functions)
        grown = appended_names(node, place, self.functions)
        start, end = place.range(place.parsed.start(node), place.parsed.end(node))
        entered = [world.grow(grown, start, end).kill(names - set(grown)) for world in worlds]
        for child in node.named_children:
            if child.type not in ("variable_name", "comment"):
                self.statement(child, place, [world.copy() for world in entered])
        # an option loop the script run without arguments never enters (`while [[ $# -gt 0 ]]`); what it
        # only appends to keeps its known start either way
        skipped = [skipped_without_arguments(node, place, world, names, self.functions) for world in worlds]
        return [
            kept(world.grow(grown, start, end), names - set(grown)) if skip else after
            for world, after, skip in zip(worlds, entered, skipped)
        ]

    _while_statement = _loop
    _c_style_for_statement = _loop

    def _for_statement(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        """`for feature in $FEATURES; do FLAGS="$FLAGS --$feature"; done` over words all known: the body once per
        word, in order, the variable holding the word where it is written; else what any loop does (`_loop`)."""
        variable, body = node.child_by_field_name("variable"), node.child_by_field_name("body")
        values = node.children_by_field_name("value")
        if variable is None or body is None or not values or _leaves_early(body, place):
            return self._loop(node, place, worlds)
        name = place.parsed.source(variable)
        results: list[World] = []
        for world in worlds:
            turns = _loop_words(values, place, world, words_of(place, node))
            exported = relevant_env(name) or name in world.exported or name in world.env
            if turns is None or exported or len(turns) * self.turns_around > _MAX_TURNS:
                results.extend(self._loop(node, place, [world]))
            elif turns:
                results.extend(self._turn_by_turn(node, body, name, turns, place, world))
            else:
                results.append(world)  # no word: the body never runs
        return results

    def _turn_by_turn(self, node: Node, body: Node, name: str, turns: list[tuple[Chunk, ...]], place: Place, world: World) -> list[World]:
        self.turns_around *= len(turns)
        try:
            return self._each_turn(node, body, name, turns, place, world)
        finally:
            self.turns_around //= len(turns)

    def _each_turn(self, node: Node, body: Node, name: str, turns: list[tuple[Chunk, ...]], place: Place, world: World) -> list[World]:
        for word in turns:
            world = world.copy()
            world.variables[name] = Scalar(word)
            turned = self.statement(body, place, [world])
            if len(turned) != 1:  # the body forks (`if`): the turns after are not read one by one
                return self._loop(node, place, turned)
            world = turned[0]
        return [world]

    def _function_definition(self, node: Node, place: Place, worlds: list[World]) -> list[World]:
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is not None and body is not None:
            self.functions[place.parsed.source(name)] = (body, place)
        return worlds


_MAX_TURNS = 32  # turns of the `for` loops read turn by turn, one inside another multiplied


def _loop_words(values: list[Node], place: Place, world: World, words: Container) -> list[tuple[Chunk, ...]] | None:
    """The words a `for` loop runs over, each as the chunks it is written in; None when one is not known."""
    expander = Expander(place, world.scope(), words)
    fields = [field for value in values for field in expander.fields(value)]
    turns = [element_chunks(field) for field in fields if field.known]
    if len(turns) != len(fields) or expander.oversized:
        return None
    return turns if all(isinstance(chunk, Chunk) for turn in turns for chunk in turn) else None  # type: ignore[return-value]


def _leaves_early(body: Node, place: Place) -> bool:
    """A loop body that may leave a turn early (`break`, `continue`, `return`, `exit`)."""
    for node in descendants(body):
        name = node.child_by_field_name("name") if node.type == "command" else None
        if name is not None and place.parsed.source(name) in ("break", "continue", "return", "exit"):
            return True
    return False
