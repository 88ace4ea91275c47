"""Keys written in a loop over pairs the tree spells out: `for key, value in FLAGS:
kw[key] = value` with `FLAGS = (("enforce_eager", True), ...)`, or over `EXTRA.items()` of a
dict the reader knows whole. Each turn's key and value are read from the element (the entry)
the loop takes them from, which is where they are decided. A value computed from the loop's
names, or a write under branches inside the loop, is read turn by turn instead (`turn_by_turn`:
ms-swift's `for key in [...]: value = getattr(self, key, None)`, `if value is not None: kw[key]
= value`). A loop that may stop early (`break`, a `continue` other than `if test: continue`
before the write) or an iterable that is not spelt out leaves the write unread."""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from ....records import record
from .facts import Entry, Kwargs
from .frames import Evaluates, Frame, reaching
from .logic import decided
from .module import Guard

MAX_TURNS = 8  # turns read one by one; a longer loop is read once
MAX_KEYS = 48  # turns of a loop over a mapping's keys, each binding only a text (a record's fields)
# a target name -> the element's node and where to read it; or, for `d.items()`, the key or the entry
_Turn = dict[str, "tuple[ast.expr, Frame] | str | Entry"]


@record(unsafe_hash=True)
class Written:
    """One turn's write: its key, the text that decides it (`first` to `value`), where to read it."""

    key: str
    first: ast.AST | None
    value: ast.expr | None
    frame: Frame
    item: Entry | None = None  # an entry of a known dict, as it is (`for k, v in EXTRA.items()`)
    maybe: bool = False  # a branch on the way is not decided in this turn: the key may be written, its value unknown


def each_turn(reader: Evaluates, loop: ast.For | ast.AsyncFor, write: ast.stmt, frame: Frame) -> list[Written] | None:
    """What `target[key] = value` (or `setattr(target, key, value)`) in `loop`'s body writes, turn
    by turn (None: not readable)."""
    keyed = key_and_value(write)
    if not _runs_through(loop, write) or keyed is None:
        return None
    turns = turns_of(reader, loop, frame)
    if turns is None:
        return None
    names = _names(loop.target) | _bound_in(loop)  # a name the body binds may hold a turn's value
    key_node, value_node = keyed
    found = []
    for turn in turns:
        key = read_turn(reader, key_node, turn, frame)
        if not isinstance(key, str):
            return None
        source = turn.get(value_node.id) if isinstance(value_node, ast.Name) else None
        if isinstance(source, Entry):
            found.append(Written(key, None, None, frame, source))
        elif isinstance(source, tuple):
            node, at = source
            found.append(Written(key, node, node, at))
        elif names & {n.id for n in ast.walk(value_node) if isinstance(n, ast.Name)}:
            return None  # `kw[key] = str(value)`: computed from the turn's names
        else:
            found.append(Written(key, write, value_node, frame))
    return found


def keyed_by_target(loop: ast.For | ast.AsyncFor, write: ast.AST) -> bool:
    """Whether `write` is `target[key] = value` (or `setattr(target, key, value)`) with `key` a name the loop binds."""
    keyed = key_and_value(write)
    return keyed is not None and isinstance(keyed[0], ast.Name) and keyed[0].id in _names(loop.target)


def key_and_value(write: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """The key and the value of `target[key] = value`, or of `setattr(target, key, value)` (an
    attribute named by a text: TIGERScore's `setattr(sampling_params, key, value)`)."""
    if isinstance(write, ast.Assign) and isinstance(write.targets[0], ast.Subscript):
        return write.targets[0].slice, write.value
    call = write.value if isinstance(write, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "setattr" and len(call.args) == 3:
        return call.args[1], call.args[2]
    return None


def turn_by_turn(
    reader: Evaluates, loop: ast.For | ast.AsyncFor, write: ast.stmt, inside: tuple[Guard, ...], frame: Frame
) -> list[Written] | None:
    """What `target[key] = value` in `loop`'s body writes, read in each turn with the loop's names
    bound to its element (`Frame.turn`): the branches between the loop and the write decided for
    that turn (a turn they are decided against writes nothing; one they stay undecided in may
    write its key, `maybe`), the value computed from the turn's names (ms-swift's `value =
    getattr(self, key, None)`, then `if value is not None: kw[key] = value`; or `if value is None:
    continue` before the write). None: a turn's key is not known, the loop is not spelt out, or
    it may stop otherwise (`break`, a `continue` elsewhere)."""
    skips, keyed = _skips(loop, write), key_and_value(write)
    if skips is None or keyed is None:
        return None
    inside = (*inside, *(Guard(skip.test, holds=False) for skip in skips))  # the write runs where no skip's test holds
    frames = reaching_turns(reader, loop, inside, frame, undecided=True)
    if frames is None:
        return None
    found = []
    for here, maybe in frames:
        key = reader.evaluate(keyed[0], here).value
        if not isinstance(key, str):
            return None
        found.append(Written(key, write, keyed[1], here, maybe=maybe))
    return found


def reaching_turns(
    reader: Evaluates, loop: ast.For | ast.AsyncFor, inside: tuple[Guard, ...], frame: Frame, undecided: bool = False
) -> list[tuple[Frame, bool]] | None:
    """The frames of the loop's turns (`Frame.turn`) that reach a statement under the branches
    `inside` it, each decided for the turn, and whether one stays undecided in that turn (only
    with `undecided`); None: the loop is not spelt out or too long, or (without `undecided`) a
    branch is not decided in some turn (which turns reach it is not known)."""
    turns = turns_of(reader, loop, frame)
    if turns is None or len(turns) > (MAX_KEYS if all(isinstance(v, str) for t in turns for v in t.values()) else MAX_TURNS):
        return None
    found = []
    for names in turns:
        here = replace(frame, turn=(loop, names))
        left = decided(reader, inside, here)
        if left is None:
            continue  # this turn does not reach the statement
        if left and not undecided:
            return None
        found.append((here, bool(left)))
    return found


def _skips(loop: ast.For | ast.AsyncFor, write: ast.stmt) -> list[ast.If] | None:
    """The `if test: continue` statements of the loop's body before the one that holds `write`
    (a turn whose test holds skips the write); None: `write` is not in the body, or another
    `continue` or a `break` may end a turn or the loop."""
    top = next((n for n, statement in enumerate(loop.body) if any(node is write for node in ast.walk(statement))), None)
    if top is None:
        return None
    skips = [
        s for s in loop.body[:top] if isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and isinstance(s.body[0], ast.Continue)
    ]
    placed = {id(skip.body[0]) for skip in skips}
    stops = (node for s in loop.body for node in ast.walk(s) if isinstance(node, (ast.Break, ast.Continue)) and id(node) not in placed)
    return None if next(stops, None) is not None else skips


def _runs_through(loop: ast.For | ast.AsyncFor, write: ast.stmt) -> bool:
    """Whether every turn reaches `write` as far as the loop itself goes: it is in the body
    (not the `else:`), and nothing in the body stops a turn or the loop early."""
    if not any(write is node for statement in loop.body for node in ast.walk(statement)):
        return False
    return not any(isinstance(node, (ast.Break, ast.Continue)) for statement in loop.body for node in ast.walk(statement))


def items_pair(target: ast.expr, iterated: ast.expr) -> tuple[ast.expr, str, str] | None:
    """The mapping and the key's and value's names of `for key, value in mapping.items()` (a
    loop's or a comprehension's target and iterable), else None."""
    if not (isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "items"):
        return None
    if iterated.args or not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)):
        return None
    key, value = (e.id for e in target.elts)  # type: ignore[attr-defined]
    return iterated.func.value, key, value


def turns_of(reader: Evaluates, loop: ast.For | ast.AsyncFor, frame: Frame) -> list[_Turn] | None:
    """What each turn binds the loop's names to (None: the iterable is not spelt out)."""
    counted = _enumerated(loop)
    if counted is not None:  # `for offset, (name, spec) in enumerate(ROLES.items())`: the inner loop's turns, counted
        index, inner = counted
        turns = turns_of(reader, inner, frame)
        return None if turns is None else [{**turn, index: (_counter(n, inner.iter), frame)} for n, turn in enumerate(turns)]
    pair = items_pair(loop.target, loop.iter)
    if pair is not None:
        mapping, key_name, value_name = pair
        items = known_whole(reader, mapping, frame)
        return None if items is None else [{key_name: key, value_name: item} for key, item in items.entries.items()]
    elements = _elements(loop.iter, frame, reader)
    if elements is None:
        keys = _keys(reader, loop.target, loop.iter, frame)
        if keys is not None:
            return [{loop.target.id: key} for key in keys]  # type: ignore[attr-defined]
        texts = _texts(reader, loop, frame)
        return None if texts is None else [{loop.target.id: text} for text in texts]  # type: ignore[attr-defined]
    turns = []
    for element, at in elements:
        turn = _bind(loop.target, element, at)
        if turn is None:
            return None
        turns.append(turn)
    return turns


def _enumerated(loop: ast.For | ast.AsyncFor) -> tuple[str, ast.For] | None:
    """The counter's name and the loop without it, for `for n, item in enumerate(items)` (from 0)."""
    iterated, target = loop.iter, loop.target
    if not (isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) and iterated.func.id == "enumerate"):
        return None
    if len(iterated.args) != 1 or iterated.keywords or not isinstance(target, ast.Tuple) or len(target.elts) != 2:
        return None
    if not isinstance(target.elts[0], ast.Name):
        return None
    return target.elts[0].id, ast.For(target=target.elts[1], iter=iterated.args[0], body=[], orelse=[])


def _counter(number: int, at: ast.expr) -> ast.Constant:
    return ast.copy_location(ast.Constant(value=number), at)


def known_whole(reader: Evaluates, mapping: ast.expr, frame: Frame) -> Kwargs | None:
    """The dict `mapping` (of `mapping.items()`) when the reader knows it whole (`Kwargs.whole`)."""
    found = reader.evaluate(mapping, frame).kwargs
    return found if found is not None and found.whole else None


def _keys(reader: Evaluates, target: ast.expr, iterated: ast.expr, frame: Frame) -> list[str] | None:
    """The keys of `for key in mapping.keys()` (or `in mapping`) of a dict the reader knows whole
    (EasyR1's `for key in config.to_dict().keys()` of a dataclass's fields)."""
    if not isinstance(target, ast.Name):
        return None
    if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "keys":
        if iterated.args or iterated.keywords:
            return None
        iterated = iterated.func.value
    items = known_whole(reader, iterated, frame)
    return None if items is None or len(items.entries) > MAX_KEYS else list(items.entries)


def _texts(reader: Evaluates, loop: ast.For | ast.AsyncFor, frame: Frame) -> list[str | tuple[ast.expr, Frame]] | None:
    """The texts of a list the reader knows where the loop starts (FlashRAG's `same_keys`, grown
    by `same_keys.append(key)` in a loop before): read at the `for`, not in its body, where an
    earlier turn may have changed it. A list that rests on a default a run may change (`for name
    in args.model` of `nargs="+", default=[...]`) gives each turn its item as read there
    (`args.model[0]`), so what the turn decides still says whose default it is."""
    at = next((placed for placed in frame.module.statements(frame.scope) if placed.statement is loop), None)
    if not isinstance(loop.target, ast.Name) or at is None:
        return None
    here = frame.reading(at)
    read = reader.evaluate(loop.iter, here)
    texts = read.value
    if not isinstance(texts, (list, tuple)) or len(texts) > MAX_KEYS or not all(isinstance(text, str) for text in texts):
        return None
    if not read.assumptions:
        return list(texts)
    return [(ast.copy_location(ast.Subscript(loop.iter, _counter(n, loop.iter), ast.Load()), loop.iter), here) for n in range(len(texts))]


def _elements(node: ast.expr, frame: Frame, reader: Evaluates) -> list[tuple[ast.expr, Frame]] | None:
    """The elements of a tuple or list spelt out in the loop, or in the constant it names (also
    one imported from a module of the tree: opencompass's `from configs.models.x import models`)."""
    if isinstance(node, ast.Name):
        binding = reaching(frame, node.id, reader.taken)  # `if not dev_sets: dev_sets = [...]` of a parameter known to be empty
        if binding is not None and binding.kind == "import" and not _grown(frame, node.id):
            found = reader.tree.resolve(frame.module.imports.get(node.id, ""), frame.module)  # type: ignore[attr-defined]
            if found is None or found[1] is None or found[0] is frame.module:
                return None
            home = found[0]
            return _elements(ast.Name(id=found[1], ctx=ast.Load()), Frame(home, home.tree), reader)
        if binding is None or binding.kind != "value" or binding.element is not None or binding.placed is None:
            return None
        if isinstance(binding.value, ast.List) and _grown(frame, node.id):
            return None
        owner = frame if frame.module.in_scope(binding.placed, frame.scope) else Frame(frame.module, frame.module.tree)
        return _elements(binding.value, owner.reading(binding.placed), reader) if isinstance(binding.value, (ast.Tuple, ast.List)) else None
    if not isinstance(node, (ast.Tuple, ast.List)) or any(isinstance(element, ast.Starred) for element in node.elts):
        return None
    return [(element, frame) for element in node.elts]


def _grown(frame: Frame, name: str) -> bool:
    """Whether the module adds to a list named `name` anywhere (`FLAGS.append(...)`, `FLAGS += ...`)."""
    text = frame.module.source.text
    return changed_in_place(text, name) or re.search(rf"\b{re.escape(name)}\s*\+=", text) is not None


def changed_in_place(text: str, name: str) -> bool:
    """Whether the text changes a list named `name` in place (`cmd.append(...)`, `cmd[1:] = ...`,
    `del cmd[0]`): its items are then not the literal's."""
    changes = r"\.(?:append|extend|insert|remove|pop|clear|sort|reverse)\(|\[[^\]]*\]\s*=(?!=)"
    return re.search(rf"\b{re.escape(name)}\s*(?:{changes})|\bdel\s+{re.escape(name)}\s*\[", text) is not None


def _bind(target: ast.expr, element: ast.expr, at: Frame) -> _Turn | None:
    if isinstance(target, ast.Name):
        return {target.id: (element, at)}
    if not isinstance(target, (ast.Tuple, ast.List)) or not isinstance(element, (ast.Tuple, ast.List)):
        return None
    if len(target.elts) != len(element.elts) or any(isinstance(e, ast.Starred) for e in element.elts):
        return None
    turn: _Turn = {}
    for name, item in zip(target.elts, element.elts):
        inner = _bind(name, item, at)
        if inner is None:
            return None
        turn.update(inner)
    return turn


def read_turn(reader: Evaluates, node: ast.expr, turn: _Turn, frame: Frame) -> object:
    source = turn.get(node.id) if isinstance(node, ast.Name) else None
    if isinstance(source, (str, Entry)):
        return source if isinstance(source, str) else None
    if source is not None:
        element, at = source
        return reader.evaluate(element, at).value
    return reader.evaluate(node, frame).value


def _names(target: ast.expr) -> set[str]:
    return {node.id for node in ast.walk(target) if isinstance(node, ast.Name)}


def _bound_in(loop: ast.For | ast.AsyncFor) -> set[str]:
    """The names the loop's body assigns (`value = getattr(self, key, None)`)."""
    return {
        node.id for statement in loop.body for node in ast.walk(statement) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }
