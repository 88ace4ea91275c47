"""A dict of engine arguments that a framework's own function builds, read from a fork's source in
the checked tree (verl's `args` in `vLLMHttpServer.launch_server`, SkyRL's `overrides` in
`build_vllm_cli_args`, OpenRLHF's `actor_kwargs` in `create_vllm_engines`, built anew in a loop's
body): the literal (or `dict(...)` call) bound to a name, then the writes that
follow it in the function (`d["k"] = v`, `d.update(...)`, `d |= {...}`, `d.setdefault(...)`,
`d.pop(...)`, `del d["k"]`), each with the `if` it sits under, up to the statement that hands the
dict on (`build_cli_args_from_config(args)`, `overrides.items()`) or binds its name anew. A dict
the module names (`fork_source.named_dicts`: a constant bound once, a function without
parameters returning a literal) is read where it is spread (`**REPLAY_ARGS`), merged
(`d.update(REPLAY_ARGS)`) or copied key by key (`for k, v in replay_kwargs().items(): d[k] = v`).

The adapters sit below the frontends, so the Python frontend's value flow is out of their reach:
this is CPython's parser on one file, never an import or an execution. A value is what
`ast.literal_eval` reads (a constant, a list, a dict of constants) or UNKNOWN with its text
(`self.config.logprobs_mode`), which the adapter compares with what its edition knows. A write it
cannot read (a key that is no string, `d.update(x)` of an `x` it cannot read) is listed as unread.
Also: the writes a function makes into the user's dict before it spreads it into its own
(`passed_through`: verl's `engine_kwargs.setdefault(...)` before `args = {..., **engine_kwargs}`).
Values a module declares rather than builds are `declared_values`'.
"""

from __future__ import annotations

import ast
from dataclasses import field, replace
from functools import lru_cache
from typing import Any, Iterator, Mapping

from ..model import UNKNOWN, Setting, Span
from ..records import record
from .fork_classes import method_choices, method_dicts
from .fork_conditions import both, guarded, loops_only, within
from .fork_source import dict_pairs, named_dict, named_dicts, nested_keys, nested_settings, placed, rebound_merges, spread_writes

MAX_CHARS = 1_000_000  # a framework's module is far smaller; a larger file is not read
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_READS = frozenset(("get",))  # methods that read the dict and leave it as it is
_WRITES = frozenset(("update", "setdefault", "pop"))  # what `_method` reads
_HANDS_ON = frozenset(("items", "keys", "values", "copy"))  # what follows reads the dict's keys, or a copy of it
_LOGS = frozenset(("print", "pprint", "info", "debug", "warning", "log", "dumps", "len", "str", "repr"))


@record(unsafe_hash=True)
class Written:
    """A key of the dict: its value (UNKNOWN unless a literal), the value's text, its line, whether
    it was written after the spread the adapter names (`**engine_kwargs`: it wins over the user's
    keys), and the `if` test it sits under ("": always)."""

    key: str
    value: Any
    text: str
    line: int
    late: bool
    condition: str = ""
    otherwise: Written | None = None  # under a condition: the value in force where it does not hold
    nested: tuple[tuple[str, Any, int], ...] = ()  # a dict literal's own keys: (key, value, line)
    note: str = ""  # how the value came to be, for a message (`the default of a parameter no caller passes`)
    path: str = ""  # the file it is written in, when not the dict's (a helper of the caller's module)
    source: str = field(default="", repr=False, compare=False)  # that file's text


@record(unsafe_hash=True)
class BuiltDict:
    path: str
    entries: dict[str, Written] = field(default_factory=dict)  # in the order the dict holds them
    removed: dict[str, Written] = field(default_factory=dict)  # keys popped or deleted (value None)
    unread: tuple[Written, ...] = ()  # writes not read here (`key`: the statement's text)
    text: str = field(default="", repr=False, compare=False)  # the file's text, for `span`

    def always(self, key: str) -> Written | None:
        """The key's value where no `if` of the function holds (None: not written then)."""
        written = self.entries.get(key)
        return written.otherwise if written is not None and written.condition else written

    def every(self) -> list[Written]:
        """Every value a key may have: the conditional ones and those they stand over."""
        return [item for written in self.entries.values() for item in (written.otherwise, written) if item is not None]

    def span(self, at: int | Written, anchor: Span) -> Span:
        """Where a finding about the value written at `at` (a line, or a key's write) sits: that line
        of the fork's file (`anchor`, the launch, when the text is not at hand)."""
        if isinstance(at, Written) and at.path:
            return placed(at.path, at.source, at.line, anchor)
        return placed(self.path, self.text, at.line if isinstance(at, Written) else at, anchor)

    def setting(self, written: Written, anchor: Span, owner: str) -> Setting:
        """The engine argument the fork writes, at its line; a dict literal's keys each at theirs
        (a finding about `enable_adaptive_verification` sits on that key's line)."""
        where = self.where(written, short=True)
        said = (
            f"{written.text} ({owner}'s {where}: {written.note})"
            if written.note
            else f"({owner}'s {where}: {written.key}={written.value!r})"
        )
        path, text = (written.path, written.source) if written.path else (self.path, self.text)
        keys = nested_settings(path, text, written.nested, anchor, owner)
        return Setting(written.key, written.value, self.span(written, anchor), said, keys=keys, implied=True, via=(anchor,))

    def where(self, at: int | Written, short: bool = False) -> str:
        """`path:line` of a line or a key's write (`short`: the file's name only, for a message's quote of the value)."""
        path, line = (at.path or self.path, at.line) if isinstance(at, Written) else (self.path, at)
        return f"{path.rsplit('/', 1)[-1] if short else path}:{line}"


def read(
    text: str, path: str, function: str, name: str, spread: str | None = None, given: Mapping[str, list[Written]] | None = None
) -> BuiltDict | None:
    """The dict `name` that the function `function` of `text` builds (None: no such function with
    one such binding, or the file does not parse); `given`: the keys of dicts the function merges
    by a name (a parameter: `d.update(extra or {})`), as its callers' code builds them."""
    found = _read(text, function, name, spread) if not given else _read.__wrapped__(text, function, name, spread, given)
    return None if found is None else BuiltDict(path, *found, text=text)


@lru_cache(maxsize=32)  # a fork's many scripts read the same file
def _read(text: str, function: str, name: str, spread: str | None, given: Mapping | None = None) -> tuple[dict, dict, tuple] | None:
    if len(text) > MAX_CHARS:
        return None
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        owners = {id(f): klass for klass in ast.walk(module) if isinstance(klass, ast.ClassDef) for f in klass.body}
        candidates = [node for node in ast.walk(module) if isinstance(node, _FUNCTIONS) and node.name == function]
        named = named_dicts(module)
        built = [
            found for node in candidates if (found := _built(module, owners.get(id(node)), node, name, spread, named, given)) is not None
        ]
    except RecursionError:
        return None
    return built[0] if len(built) == 1 else None


def passed_through(text: str, path: str, function: str, name: str, spread: str) -> BuiltDict | None:
    """The writes the function `function` of `text` makes into `spread`, the user's dict it spreads
    into the dict `name` (`engine_kwargs.setdefault("k", v)` before `args = {..., **engine_kwargs}`),
    from its last binding before that statement: a `setdefault` under the user's keys (`late`
    False), any other write over them. A binding to a dict literal (the user's keys dropped), or
    a statement that binds it anew or hands it on before the spread, is listed as unread. None:
    no such function with one such dict, or the file does not parse."""
    found = _passed_through(text, function, name, spread)
    return None if found is None else BuiltDict(path, *found, text=text)


@lru_cache(maxsize=32)
def _passed_through(text: str, function: str, name: str, spread: str) -> tuple[dict, dict, tuple] | None:
    if len(text) > MAX_CHARS:
        return None
    try:
        module = ast.parse(text)
        candidates = [node for node in ast.walk(module) if isinstance(node, _FUNCTIONS) and node.name == function]
        if len(candidates) != 1:
            return None
        body = list(guarded(candidates[0].body, ""))
        main = _Builder(name, spread, {})
        until = next((s for s, condition in body if main._binding(s) is not None and loops_only(condition)), None)
        owner = next((k for k in ast.walk(module) if isinstance(k, ast.ClassDef) and candidates[0] in k.body), None)
        methods = {f.name: f for f in owner.body if isinstance(f, _FUNCTIONS)} if owner is not None else {}
        return _Builder(spread, None, named_dicts(module), passthrough=True, methods=methods).run(body, until) if until else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _built(
    module: ast.Module, owner: ast.ClassDef | None, node: ast.AST, name: str, spread: str | None, named: dict, given: Mapping | None
) -> tuple | None:
    """The dict `name` of one function, its class's hooks (`self.extra_engine_args()`) read as dicts."""
    hooks, choices = (method_dicts(module, owner), method_choices(module, owner)) if owner is not None else ({}, {})
    return _Builder(name, spread, {**named, **hooks}, given=given, choices=choices).run(list(guarded(node.body, "")))  # type: ignore[attr-defined]


def _first_line(statement: ast.stmt) -> str:
    return ast.unparse(statement).split("\n", 1)[0]


def _shallow(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a statement's own expressions (not those of the statements it holds)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(child for child in ast.iter_child_nodes(current) if not isinstance(child, (ast.stmt, ast.excepthandler)))


def written(key: str, node: ast.expr, late: bool, condition: str = "") -> Written:
    """The key's value as the node writes it, with a dict literal's own literal keys."""
    return Written(key, _value(node), ast.unparse(node), node.lineno, late, condition, nested=nested_keys(node))


def _value(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def _key(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class _Builder:
    """The dict `name` through the statements of one function body."""

    def __init__(
        self,
        name: str,
        spread: str | None,
        named: dict[str, list[tuple[str, ast.expr]]],
        depth: int = 0,
        given: Mapping | None = None,
        passthrough: bool = False,
        methods: Mapping[str, ast.FunctionDef | ast.AsyncFunctionDef] | None = None,
        choices: Mapping[str, list[tuple[str, list[tuple[str, ast.expr]]]]] | None = None,
    ) -> None:
        self.name, self.spread, self.named, self.depth, self.given = name, spread, named, depth, given or {}
        self.passthrough = passthrough  # the user's dict, bound from any value: its writes are the fork's
        self.methods = methods or {}  # the class's own, which `self.m(d)` runs on the user's dict
        self.choices = choices or {}  # a hook's dict on each class the module may start, with its test
        self.spread_loops: set[int] = set()  # the bodies of `for k, v in D.items(): d[k] = v` read whole
        self.entries: dict[str, Written] = {}
        self.removed: dict[str, Written] = {}
        self.unread: list[Written] = []
        self.body: list[tuple[ast.stmt, str]] = []

    def run(self, body: list[tuple[ast.stmt, str]], until: ast.stmt | None = None) -> tuple[dict, dict, tuple] | None:
        """The main dict: its first binding in no branch (a loop's body is one: OpenRLHF builds a
        dict per engine), read to the end of the block it is in; another (`until`: the statement
        that merges it): its last binding before that statement."""
        self.body = body
        bindings = [i for i, (s, condition) in enumerate(body) if self._binding(s) is not None and (until or loops_only(condition))]
        if until is not None:
            bindings = [i for i in bindings if i < next(n for n, (s, _) in enumerate(body) if s is until)]
        if not bindings:
            return None
        start = bindings[-1] if until is not None else bindings[0]
        home = body[start][1] if until is None else ""
        self._bound(self._binding(body[start][0]))  # type: ignore[arg-type]
        for statement, condition in body[start + 1 :]:
            inner = within(condition, home)
            if inner is None or statement is until or not self._step(statement, inner):
                if self.passthrough and statement is not until:  # bound anew or handed on before the spread:
                    self.unread.append(Written("", UNKNOWN, _first_line(statement), statement.lineno, True))
                    self.entries = {}  # what was written into it may not be what is spread
                break  # out of the loop the dict is built in, merged, or handed on
        return self.entries, self.removed, tuple(self.unread)

    def _binding(self, statement: ast.stmt) -> ast.expr | None:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
            is_dict = isinstance(value, ast.Dict) or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args
            )
            if isinstance(target, ast.Name) and target.id == self.name and (is_dict or self.passthrough):
                return value
        return None

    def _bound(self, value: ast.expr) -> None:
        if self.passthrough:
            if dict_pairs(value) is not None:  # the user's keys dropped: not read here
                self.unread.append(Written("", UNKNOWN, f"{self.name} = {ast.unparse(value)}", value.lineno, True))
            return
        late = self.spread is None
        pairs = zip(value.keys, value.values) if isinstance(value, ast.Dict) else ((k.arg, k.value) for k in value.keywords)  # type: ignore[attr-defined]
        for key, item in pairs:
            written = key if isinstance(key, str) else _key(key) if key is not None else None
            if written is not None:
                self._put(written, item, late, "")
            elif key is None and self._is_spread(item):
                late = True
            elif key is None and self._chosen(item, late, ""):
                continue
            elif key is None and (pairs := named_dict(item, self.named)) is not None:
                for name, value in pairs:  # `**REPLAY_ARGS`, a dict the module names
                    self._put(name, value, late, "")
            else:
                self.unread.append(Written("", UNKNOWN, ast.unparse(item if key is None else key), item.lineno, late))

    def _chosen(self, node: ast.expr, late: bool, condition: str) -> bool:
        """`self.hook()` of a class the module starts by a test: each class's keys under its test."""
        choices = self.choices.get(ast.unparse(node)) if isinstance(node, ast.Call) else None
        for test, pairs in choices or ():
            for key, value in pairs:
                self._put(key, value, late, both(condition, test))
        return choices is not None

    def _is_spread(self, item: ast.expr) -> bool:
        """The pass-through the adapter names, as such or converted (`**engine_kwargs`,
        `**get_config_as_dict(ie_cfg.engine_init_kwargs)`, `**dict(cfg.engine_kwargs)`)."""
        if isinstance(item, ast.Call) and len(item.args) == 1 and not item.keywords:
            item = item.args[0]
        name = item.id if isinstance(item, ast.Name) else item.attr if isinstance(item, ast.Attribute) else None
        return name is not None and name == self.spread

    def _put(self, key: str, node: ast.expr, late: bool, condition: str) -> None:
        self._store(written(key, node, late, condition))

    def _store(self, written: Written) -> None:
        """A key written last; under a condition, over the value in force where it does not hold."""
        earlier = self.entries.pop(written.key, None)
        if written.condition and earlier is not None:
            written = replace(written, otherwise=earlier.otherwise if earlier.condition else earlier)
        self.entries[written.key] = written

    def _step(self, statement: ast.stmt, condition: str) -> bool:
        """Read the writes of one statement; False where the dict is handed on or bound anew."""
        if id(statement) in self.spread_loops:
            return True
        if pairs := spread_writes(statement, self.name, self.named):
            self.spread_loops.update(id(inner) for inner in statement.body)  # type: ignore[attr-defined]
            for key, value in pairs:
                self._put(key, value, True, condition)
            return True
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == self.name for t in statement.targets):
            merged = rebound_merges(statement.value, self.name) if len(statement.targets) == 1 else None
            for key, node in merged or ():  # `args = dict(**args, **replay_args)`: merged over its keys
                self._merge(node, condition) if key is None else self._put(key, node, True, condition)
            return merged is not None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and self._is_item(statement.targets[0]):
            self._item(statement.targets[0], statement.value, condition)  # type: ignore[arg-type]
        elif isinstance(statement, ast.Delete):
            for target in statement.targets:
                if self._is_item(target):
                    self._remove(_key(target.slice), statement, condition)  # type: ignore[attr-defined]
        elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name) and statement.target.id == self.name:
            self._merge(statement.value, condition)
        elif self.passthrough and self.depth < 2 and (helper := self._helper(statement)) is not None:
            return self._follow(*helper, condition)
        return self._methods(statement, condition)

    def _helper(self, statement: ast.stmt) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, str] | None:
        """`self.m(d)`, a method of the class handed the user's dict: the method and its parameter."""
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)):
            return None
        method = self.methods.get(call.func.attr) if call.func.value.id == "self" and not call.keywords else None
        names = [a.arg for a in method.args.args[1:]] if method is not None else []
        at = [i for i, argument in enumerate(call.args) if self._is_name(argument)]
        return (method, names[at[0]]) if method is not None and len(at) == 1 and at[0] < len(names) else None  # type: ignore[return-value]

    def _follow(self, method: ast.FunctionDef | ast.AsyncFunctionDef, parameter: str, condition: str) -> bool:
        """The method's writes into its parameter, as the caller's under the caller's `if`."""
        inner = _Builder(parameter, None, self.named, self.depth + 1, passthrough=True)
        inner.body, inner.entries = list(guarded(method.body, "")), dict(self.entries)
        for statement, test in inner.body:
            if not inner._step(statement, test):
                inner.unread.append(Written("", UNKNOWN, _first_line(statement), statement.lineno, True))
                inner.entries = {}  # as `run`'s: what was written may not be what is spread
                break
        self.entries = {key: w for key, w in self.entries.items() if key in inner.entries}  # popped there
        for written in (w for key, w in inner.entries.items() if self.entries.get(key) is not w):
            self._store(replace(written, condition=both(condition, written.condition) if condition else written.condition))
        self.removed.update(inner.removed)
        self.unread += [replace(w, condition=both(condition, w.condition) if condition else w.condition) for w in inner.unread]
        return True

    def _is_item(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == self.name

    def _item(self, target: ast.Subscript, value: ast.expr, condition: str) -> None:
        key = _key(target.slice)
        if key is None:
            self.unread.append(Written("", UNKNOWN, ast.unparse(target), target.lineno, True, condition))
        else:
            self._put(key, value, True, condition)

    def _methods(self, statement: ast.stmt, condition: str) -> bool:
        """The dict's methods called in the statement; False where it is read otherwise."""
        methods: set[int] = set()
        for node in _shallow(statement):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and self._is_name(node.func.value):
                if node.func.attr in _HANDS_ON or self.passthrough and node.func.attr not in _WRITES | _READS:
                    return False  # the user's dict changed in a way not read here (`clear()`): as if handed on
                methods.add(id(node.func.value))
                self._method(node.func.attr, node, condition)
            elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
                called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                if called in _LOGS:
                    methods.update(id(argument) for argument in node.args)
        items = {id(n.value) for n in _shallow(statement) if isinstance(n, ast.Subscript) and self._is_name(n.value)}
        if isinstance(statement, ast.AugAssign):
            items.add(id(statement.target))
        return not any(self._is_name(n) and id(n) not in methods | items for n in _shallow(statement))

    def _is_name(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == self.name

    def _method(self, method: str, node: ast.Call, condition: str) -> None:
        first = node.args[0] if node.args else None
        if method == "update":
            for argument in node.args:
                self._merge(argument, condition)
            for keyword in node.keywords:
                if keyword.arg is None:
                    self._merge(keyword.value, condition)
                else:
                    self._put(keyword.arg, keyword.value, True, condition)
        elif method == "setdefault" and first is not None and _key(first) is not None:
            if _key(first) not in self.entries:  # in the user's dict: under what the user wrote
                value = node.args[1] if len(node.args) > 1 else ast.Constant(None, lineno=node.lineno)
                self._put(_key(first), value, not self.passthrough, condition)  # type: ignore[arg-type]
        elif method == "pop":
            self._remove(_key(first) if first is not None else None, node, condition)
        elif method not in _READS:
            self.unread.append(Written("", UNKNOWN, ast.unparse(node), node.lineno, True, condition))

    def _binds(self, node: ast.expr) -> bool:
        """Whether the function binds the name itself (its own dict, not the module's)."""
        return isinstance(node, ast.Name) and any(
            isinstance(target, ast.Name) and target.id == node.id
            for statement, _ in self.body
            if isinstance(statement, ast.Assign)
            for target in statement.targets
        )

    def _remove(self, key: str | None, node: ast.AST, condition: str) -> None:
        if key is None:
            self.unread.append(Written("", UNKNOWN, ast.unparse(node), node.lineno, True, condition))  # type: ignore[attr-defined]
            return
        if not condition:
            self.entries.pop(key, None)
        self.removed[key] = Written(key, None, ast.unparse(node), node.lineno, True, condition)  # type: ignore[attr-defined]

    def _merge(self, node: ast.expr, condition: str) -> None:
        """`d.update(x)`, `d |= x`: a dict literal, or a name bound to one in the same function."""
        other: tuple[dict, dict, tuple] | None = None
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2 and dict_pairs(node.values[1]) == []:
            node = node.values[0]  # `extra or {}`: the dict, or nothing
        if isinstance(node, ast.Name) and node.id in self.given and not self._binds(node):
            for each in self.given[node.id]:  # written in the caller's code, in order, under this `if` too
                self._store(replace(each, late=True, condition=both(condition, each.condition) if each.condition else condition))
            return
        if self._chosen(node, True, condition):
            return
        pairs = dict_pairs(node) if isinstance(node, ast.Dict) else None
        if pairs is not None or (pairs := named_dict(node, self.named)) is not None and not self._binds(node):
            for key, value in pairs:
                self._put(key, value, True, condition)
            return
        if isinstance(node, ast.Name) and self.depth < 2:
            until = next((s for s, _ in self.body if node in set(_shallow(s))), None)
            other = _Builder(node.id, None, self.named, self.depth + 1).run(self.body, until)
        if other is None or other[2]:
            self.unread.append(Written("", UNKNOWN, ast.unparse(node), node.lineno, True, condition))
            return
        for written in other[0].values():
            inner = written.condition if written.condition.startswith(condition) else both(condition, written.condition)
            self._store(Written(written.key, written.value, written.text, written.line, True, inner if written.condition else condition))
