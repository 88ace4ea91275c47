"""A list of words built in steps in one scope: bound to a literal (`cmd = ["python3", "-m",
module]`), then `cmd.append(word)`, `cmd.extend(words)` and `cmd += words`, also in a loop over
a mapping or a sequence the reader knows whole, read turn by turn (AReaL's `get_py_cmd`: `for k,
v in args.items():`, `if v is None or v is False: continue`, `flag = f"--{k.replace('_', '-')}"`,
`if v is True: cmd.append(flag)`, `else: cmd.append(flag); cmd.append(str(v))`), each turn's
branches decided for it (instructlab's `if not contains_argument("--port", vllm_args):`). Any other
change (`insert`, `cmd[i] = ...`, a nested loop, a branch not decided, words not known item by item)
leaves the list unknown; an item whose text is not known is one word (`["--model",
os.fspath(model_path)]`). A list spelt out may splice known lists in (`[*base, "--port", port]`)."""

from __future__ import annotations

import ast
from dataclasses import replace

from .facts import NOTHING, Entry, Val
from .frames import Evaluates, Frame, expressions
from .logic import decided
from .loops import turns_of
from .module import FUNCTIONS, Guard, Placed

MAX_TURNS = 64  # turns of a flag-building loop read one by one (a config's fields); a longer one is not read
_ADDS = ("append", "extend")


def grown_list(reader: Evaluates, name: str, read: Val, frame: Frame, bound: Placed, use: Frame) -> Val:
    """The list `name` holds where `use` reads it, bound to `read` at `bound` in `frame`'s scope
    (a function's), with the words the statements after it add (NOTHING: not known; a list of
    the module, or one read in another scope, which a function may change at any time)."""
    module = frame.module
    items = list(read.ref) if isinstance(read.ref, tuple) else None
    if items is None or use.scope is not frame.scope or frame.scope is module.tree:
        return NOTHING
    until = use.at
    loops = [guard for guard in until.guards[len(bound.guards) :] if guard.opaque] if until is not None else []
    steps = []
    for placed in module.statements(frame.scope):
        if placed.order <= bound.order:
            continue
        change = changes_list(placed.statement, name)
        if change is not None and any(guard is loop for guard in placed.guards for loop in loops):
            return NOTHING  # changed in a loop it is read in: an earlier turn's later steps have run
        if until is not None and (placed.order >= until.order or _exclusive(placed.guards, until.guards)):
            continue  # after the read, or on the other arm of an `if` it sits under (`Popen(args=cmd)` in both arms)
        if change is False:
            return NOTHING
        if change is not None:
            placed = _unwrapped(reader, placed, bound.guards, frame)
            if placed is None:
                return NOTHING
            if placed is not _NOT_RUN:
                steps.append(placed)
    for group in _grouped(steps, bound.guards):
        added = _added(reader, group, name, frame, bound.guards)
        if added is None:
            return NOTHING
        items += added
    return Val([item.value for item in items], span=read.span, ref=tuple(items))


def grown_in_steps(reader: Evaluates, name: str, frame: Frame) -> Val:
    """The list `name` holds where `frame` reads it in a function that binds it to a literal and
    then only adds to it with `+=` (under branches or in a loop, so that no one binding holds)."""
    module, use = frame.module, frame.at
    if use is None or not isinstance(frame.scope, FUNCTIONS):
        return NOTHING
    placed = [p for p in module.binders(frame.scope, name) if p.order < use.order]
    first = placed[0] if placed else None
    statement = first.statement if first is not None else None
    if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.List) and _names(statement, name)):
        return NOTHING
    assert first is not None
    if first.guards != use.guards[: len(first.guards)] or not all(changes_list(p.statement, name) for p in placed[1:]):
        return NOTHING
    return grown_list(reader, name, reader.evaluate(statement.value, frame.reading(first)), frame, first, frame)


_NOT_RUN = Placed(ast.Pass(), (), -1)


def _unwrapped(reader: Evaluates, placed: Placed, outer: tuple[Guard, ...], frame: Frame) -> Placed | None:
    """A step in a loop under branches the reader decides (`if kwargs:` around `for k, v in
    kwargs.items():`), read as the loop's own: without them where they hold, `_NOT_RUN` where one
    does not; None where one is not decided. Any other step is as it is."""
    inner = placed.guards[len(outer) :]
    leading = next((n for n, guard in enumerate(inner) if guard.opaque), 0)
    if not leading or not inner[leading].loop:
        return placed
    left = decided(reader, inner[:leading], frame.reading(Placed(placed.statement, placed.guards[: len(outer) + leading], placed.order)))
    if left is None:
        return _NOT_RUN
    return None if left else replace(placed, guards=(*outer, *inner[leading:]))


def _exclusive(guards: tuple[Guard, ...], others: tuple[Guard, ...]) -> bool:
    """Whether two statements sit on different arms of one `if` (the one never runs when the other does)."""
    return any(g.node is o.node and g.holds != o.holds for g in guards if g.node is not None and not g.opaque for o in others)


def _names(statement: ast.Assign, name: str) -> bool:
    return len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == name


def _grouped(steps: list[Placed], outer: tuple[Guard, ...]) -> list[list[Placed]]:
    """The steps, those in one loop (its first guard below `outer`) together."""
    groups: list[list[Placed]] = []
    for placed in steps:
        loop = _loop_of(placed, outer)
        if groups and loop is not None and _loop_of(groups[-1][0], outer) is loop:
            groups[-1].append(placed)
        else:
            groups.append([placed])
    return groups


def _loop_of(placed: Placed, outer: tuple[Guard, ...]) -> ast.For | ast.AsyncFor | None:
    inner = placed.guards[len(outer) :]
    return inner[0].loop if inner and inner[0].opaque else None


def _added(reader: Evaluates, group: list[Placed], name: str, frame: Frame, outer: tuple[Guard, ...]) -> list[Val] | None:
    """The words one step, or one loop's steps turn by turn, add (None: not known)."""
    if any(placed.guards[: len(outer)] != outer for placed in group):
        beyond = _past_binding(group[0], outer) if len(group) == 1 else None
        return None if beyond is None else _words(reader, group[0], name, frame.reading(group[0]), beyond)
    loop = _loop_of(group[0], outer)
    if loop is None:
        return _words(reader, group[0], name, frame.reading(group[0]), group[0].guards[len(outer) :])
    inner = [placed.guards[len(outer) + 1 :] for placed in group]
    if any(guard.opaque for guards in inner for guard in guards):
        return None  # a loop or a handler inside the loop
    turns = turns_of(reader, loop, frame)
    skips = _skips(loop, group)
    if turns is None or len(turns) > MAX_TURNS or skips is None:
        return None
    added: list[Val] = []
    for names in turns:
        here = replace(frame, turn=(loop, names))
        for placed, guards in zip(group, inner):
            words = _words(reader, placed, name, here.reading(placed), (*skips, *guards))
            if words is None:
                return None
            added += [_at_key(word, names) for word in words]
    return added


def _past_binding(placed: Placed, outer: tuple[Guard, ...]) -> tuple[Guard, ...] | None:
    """The branches a step runs under past those it shares with a binding that sits under a branch
    the step is outside of (`if mask: cmd += [...]` bound, then `if mode is not None: cmd += [...]`):
    the binding ran, so the step adds its words where those hold. None: the step is in another arm
    of one of the binding's `if`s, or a loop is among the branches."""
    shared = next((n for n, (mine, theirs) in enumerate(zip(placed.guards, outer)) if mine != theirs), min(len(placed.guards), len(outer)))
    rest, left = placed.guards[shared:], outer[shared:]
    if any(guard.opaque for guard in (*rest, *left)) or (rest and left and rest[0].node is left[0].node):
        return None
    return rest


def _at_key(word: Val, names: dict) -> Val:
    """A flag spelling the turn's key (`f"--{k.replace('_', '-')}"`), placed at the key's entry (a
    config field's line: a bool field gives its flag whatever its value)."""
    key = next((held for held in names.values() if isinstance(held, str)), None)
    entry = next((e for e in names.values() if isinstance(e, Entry) and e.setting.name == key), None)
    if entry is None or key is None or word.value not in (f"--{key}", f"--{key.replace('_', '-')}"):
        return word
    return replace(word, span=entry.setting.span, origin=entry.setting.span, parts=())


def _words(reader: Evaluates, placed: Placed, name: str, here: Frame, guards: tuple[Guard, ...]) -> list[Val] | None:
    left = decided(reader, guards, here)
    if left is None:
        return []  # a branch decided against: the step does not run
    if left:
        return None
    statement = placed.statement
    if isinstance(statement, ast.AugAssign):
        return _known_items(reader.evaluate(statement.value, here))
    call = statement.value  # type: ignore[attr-defined]
    read = reader.evaluate(call.args[0], here)
    return [read] if call.func.attr == "append" and _one_word(read) else _known_items(read) if call.func.attr == "extend" else None


def _known_items(read: Val) -> list[Val] | None:
    """The items of a list the reader knows item by item, each one word (its text may be unknown:
    `["--model", os.fspath(model_path)]`)."""
    items = read.ref if isinstance(read.ref, tuple) else None
    return list(items) if items is not None and all(isinstance(item, Val) and _one_word(item) for item in items) else None


def _one_word(read: Val) -> bool:
    """A value that is one word of the list: known, or not known but no list, mapping or object."""
    return read.known or (read.ref is None and read.kwargs is None and not read.choices)


def _skips(loop: ast.For | ast.AsyncFor, group: list[Placed]) -> tuple[Guard, ...] | None:
    """The `if test: continue` statements at the top of the loop's body before its steps, as the
    branches the steps run under (their tests false); None: another `continue` or a `break`."""
    first = next(n for n, statement in enumerate(loop.body) if any(node is group[0].statement for node in ast.walk(statement)))
    skips = [
        s for s in loop.body[:first] if isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and isinstance(s.body[0], ast.Continue)
    ]
    placed = {id(skip.body[0]) for skip in skips}
    stops = (node for s in loop.body for node in ast.walk(s) if isinstance(node, (ast.Break, ast.Continue)) and id(node) not in placed)
    return None if next(stops, None) is not None else tuple(Guard(skip.test, holds=False) for skip in skips)


def changes_list(statement: ast.stmt, name: str) -> bool | None:
    """True: the statement adds words to the list (`name.append(x)`, `name.extend(xs)`, `name +=
    xs`); False: it changes it otherwise, or rebinds it; None: it does not touch it."""
    if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name) and statement.target.id == name:
        return isinstance(statement.op, ast.Add)
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and isinstance(call.func, ast.Attribute):
        owner = call.func.value
        if isinstance(owner, ast.Name) and owner.id == name:
            return call.func.attr in _ADDS and len(call.args) == 1 and not call.keywords
    if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets):
        return False  # bound again (on a branch)
    for node in expressions(statement):
        if isinstance(node, ast.Call) and _handed(node, name):
            return False  # `add_flags(cmd)`: the callee may change it
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            return False  # `name.insert(...)`, `x = name.pop()`
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and not isinstance(node.ctx, ast.Load)
        ):
            return False  # `name[0] = ...`, `del name[0]`
    return None


_LOOKS = ("print", "len", "str", "repr", "list", "tuple", "sorted", "join", "debug", "info", "warning", "error", "log")


def _handed(call: ast.Call, name: str) -> bool:
    """Whether a call is given the list itself, other than to look at it (`print(cmd)`,
    `" ".join(cmd)`, `logger.info(...)`)."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    given = [*call.args, *(keyword.value for keyword in call.keywords)]
    return called not in _LOOKS and any(isinstance(arg, ast.Name) and arg.id == name for arg in given)


def spelt_items(reader: Evaluates, node: ast.List | ast.Tuple | ast.Set, frame: Frame) -> Val:
    """A list, tuple or set spelt out, its `*words` spliced in where the reader knows them item by
    item (`[sys.executable, "-m", module, *self._server_args()]`); NOTHING when one is not known."""
    items: list[Val] = []
    for element in node.elts:
        if not isinstance(element, ast.Starred):
            items.append(reader.evaluate(element, frame))
            continue
        spliced = reader.evaluate(element.value, frame).ref
        if not (isinstance(spliced, tuple) and all(isinstance(item, Val) for item in spliced)):
            return NOTHING
        items.extend(spliced)
    return Val([item.value for item in items], span=frame.module.span(node), ref=tuple(items))
