"""`sys.argv` changed by the program before `parser.parse_args()` reads it. Words it adds
(`sys.argv.extend(["--logprobs-mode", "raw_logprobs"])`, `sys.argv += [...]`, `sys.argv.append(...)`)
come after those it is run with, and argparse keeps an option's last value: they decide those
options whatever the run gives, the others stay at their defaults as the run leaves them.
`sys.argv = [prog, ...]` and `sys.argv[1:] = [...]` replace the run's words: every option decided.

The changes read are the statements before the parse in its function, and before the call that
led there in each caller the reader came through (`args = get_args()` under `__main__`), outermost
first. A change under a branch the reader cannot decide (or decides by an option's default), of
words not known here, or of another shape (`sys.argv.insert`, `del sys.argv[1]`), leaves every
option unknown; one under a branch decided against never runs."""

from __future__ import annotations

import ast

from ....records import record
from .facts import Kwargs
from .frames import Evaluates, Frame, expressions
from .logic import decided
from .module import Module, Placed
from .parsers import Parser, decided as decided_defaults, defaults_and_flags, given_words

_MAX_CALLERS = 6  # callers followed out from the parse
_ADDS = ("extend", "append")


@record(unsafe_hash=True)
class _Change:
    """One change of `sys.argv`: words added or put in place of the run's (`replaces`), spelt in
    `frame`'s module; `words` None: a change not read."""

    words: list[ast.Constant] | None
    replaces: bool
    frame: Frame
    line: str


def argv_options(reader: Evaluates, parser: Parser, frame: Frame) -> Kwargs | None:
    """The options `parser.parse_args()` read at `frame` gives after the program's own changes
    of `sys.argv`; None: none is seen before it (the options' defaults, as the run leaves them)."""
    if frame.at is None:
        return None
    levels = _levels(frame)
    if not any("argv" in level.module.source.text for level, _ in levels):
        return None
    reading: set = reader.__dict__.setdefault("_argv_reading", set())
    key = id(frame.at.statement)
    if key in reading:  # a branch's test that parses again
        return None
    reading.add(key)
    try:
        changes = _changes_before(reader, levels)
    finally:
        reading.discard(key)
    if not changes:
        return None
    found, flags = defaults_and_flags(reader, parser)
    for change in changes:
        if change.replaces:
            found, _ = defaults_and_flags(reader, parser)
            decided_defaults(found)
        if change.words is None or not given_words(reader, found, flags, change.words, change.frame):
            found.merge(Kwargs(reasons=[f"sys.argv changed at {change.line}"]))
            return found
    return found


def _changes_before(reader: Evaluates, levels: list[tuple[Frame, Placed | None]]) -> list[_Change]:
    changes: list[_Change] = []
    for level, until in levels:
        changing = _changing(reader, level.module, level.scope)
        if until is None:  # where the program reaches this scope is not known: a change in it may come first
            changes += [_unread(level, placed) for placed in changing]
            continue
        for placed in changing:
            if placed.order >= until.order:
                break
            change = _runs(reader, level, placed, until)
            if change is not None:
                changes.append(change)
    return changes


def _changing(reader: Evaluates, module: Module, scope: ast.AST) -> list[Placed]:
    """A scope's statements that may change `sys.argv`, in order (once per scope and reader:
    every `args.x` read parses again)."""
    known: dict = reader.__dict__.setdefault("_argv_changing", {})
    key = (module.path, id(scope))
    if key not in known:
        known[key] = [placed for placed in module.statements(scope) if changes_argv(module, placed)]
    return known[key]


def _levels(frame: Frame) -> list[tuple[Frame, Placed | None]]:
    """The frames the program ran through to `frame`, outermost first, each with the statement it
    was at (None: a module's top level whose statements may run before it or after)."""
    chain = [frame]
    while chain[-1].returned_to is not None and chain[-1].returned_to.at is not None and len(chain) <= _MAX_CALLERS:
        chain.append(chain[-1].returned_to)  # type: ignore[arg-type]
    outermost = chain[-1]
    module = outermost.module
    levels: list[tuple[Frame, Placed | None]] = []
    if outermost.scope is not module.tree:  # a function: the module's top level ran before it, up to its call there
        top = next((placed for scope, placed in outermost.sites if scope is module.tree), None)
        levels.append((Frame(module, module.tree, at=top), top))
        levels += [(Frame(module, scope, at=placed), placed) for scope, placed in outermost.sites if scope is not module.tree]
    return levels + [(level, level.at) for level in reversed(chain)]


def _runs(reader: Evaluates, level: Frame, placed: Placed, until: Placed) -> _Change | None:
    """The change `placed` makes where the reader reaches `until` (None: its branch never runs)."""
    extra = tuple(guard for guard in placed.guards if guard not in until.guards)
    here = level.reading(placed)
    if extra:
        assumed: list[str] = []
        left = decided(reader, extra, here, assumed)
        if left is None and not assumed:
            return None
        if left or assumed:
            return _unread(level, placed)
    return _change(reader, level.module, placed.statement, here)


def _unread(level: Frame, placed: Placed) -> _Change:
    return _Change(None, False, level, level.module.line(placed.statement))


def _change(reader: Evaluates, module: Module, statement: ast.stmt, frame: Frame) -> _Change:
    line = module.line(statement)
    added: ast.expr | None = None
    replaced: ast.expr | None = None
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and isinstance(call.func, ast.Attribute):
        if call.func.attr in _ADDS and _is_argv(module, call.func.value) and len(call.args) == 1 and not call.keywords:
            added = call.args[0] if call.func.attr == "extend" else ast.List([call.args[0]])
    elif isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add) and _is_argv(module, statement.target):
        added = statement.value
    elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        replaced = _replacing(module, statement.targets[0], statement.value)
    spelt = added if added is not None else replaced
    return _Change(_words(reader, spelt, frame) if spelt is not None else None, replaced is not None, frame, line)


def _replacing(module: Module, target: ast.expr, value: ast.expr) -> ast.expr | None:
    """The words put in place of the run's: `sys.argv[1:] = WORDS`, `sys.argv = [PROG, *WORDS]`,
    `sys.argv = [sys.argv[0]] + WORDS`."""
    if isinstance(target, ast.Subscript) and _is_argv(module, target.value) and _from_first(target.slice):
        return value
    if not _is_argv(module, target):
        return None
    if isinstance(value, ast.List) and value.elts and not isinstance(value.elts[0], ast.Starred):
        return ast.List(value.elts[1:])
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and isinstance(value.left, ast.List) and len(value.left.elts) == 1:
        return value.right
    return None


def _from_first(index: ast.expr) -> bool:
    return isinstance(index, ast.Slice) and isinstance(index.lower, ast.Constant) and index.lower.value == 1 and index.upper is None


def _words(reader: Evaluates, spelt: ast.expr, frame: Frame) -> list[ast.Constant] | None:
    """Texts the reader knows, each placed where it is spelt (a list not spelt out: at the list)."""
    items = spelt.elts if isinstance(spelt, (ast.List, ast.Tuple)) else None
    if items is None:
        value = reader.evaluate(spelt, frame).value
        values = value if isinstance(value, (list, tuple)) else None
        placed_at: list[ast.expr] = [spelt] * len(values) if values is not None else []
    else:
        if any(isinstance(item, ast.Starred) for item in items):
            return None
        values = [reader.evaluate(item, frame).value for item in items]
        placed_at = list(items)
    if values is None or not all(isinstance(value, str) for value in values):
        return None
    return [ast.copy_location(ast.Constant(value), node) for value, node in zip(values, placed_at)]


def changes_argv(module: Module, placed: Placed) -> bool:
    """Whether a statement (not what it nests) may change `sys.argv`: a method that changes a list
    called on it, or it (or an item or slice of it) written or deleted."""
    for node in expressions(placed.statement):
        if isinstance(node, ast.Attribute) and node.attr not in ("argv",) and _is_argv(module, node.value):
            if node.attr in ("extend", "append", "insert", "pop", "remove", "clear", "reverse", "sort", "__setitem__", "__delitem__"):
                return True
        if isinstance(node, (ast.Attribute, ast.Name, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if _is_argv(module, node.value if isinstance(node, ast.Subscript) else node):
                return True
    return isinstance(placed.statement, ast.AugAssign) and _is_argv(module, placed.statement.target)


def _is_argv(module: Module, node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == "argv" and isinstance(node.value, ast.Name):
        return module.imports.get(node.value.id) == "sys"
    return isinstance(node, ast.Name) and module.imports.get(node.id) == "sys.argv"
