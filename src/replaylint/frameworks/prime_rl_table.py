"""The `[inference.vllm]` table of a prime-rl fork (`prime_rl_fork`): the classes it is typed with,
their fields' literal defaults, and what the table's own code sets after the file is read.

pydantic runs a model's code around validation, in this order: `@model_validator(mode="before")`
and pydantic v1's `@root_validator(pre=True)` get the file's keys as a dict (`data["X"] = value`
replaces the file's key, `data.setdefault("X", value)` gives way to it); `@field_validator` /
v1 `@validator` return each named field's value; `model_post_init`, `@model_validator(mode="after")`
and v1's `@root_validator()` then set fields on the built model (`self.X = value`, `values["X"] =
value`), over the file's keys. A write under `if` tests (or after `if TEST: return self`, or
`raise`) is decided by the table's keys they read (`self.KEY`, `data.get("KEY")`,
`self.model_extra.get("KEY")`): the file's value, else the typed field's literal default; a key
the table's code itself may change, a loop's
body, a `mode="wrap"` validator or a test of anything else leaves the write unknown. A field
validator that may return something other than the value it was given leaves that field unknown.
A subclass's method hides its base's of the same name unless it calls `super().NAME(...)`.
`InferenceConfig`'s own after validators (`read_inference`) run once the table's have: they set
its fields as `self.vllm.X`, under tests of `[inference]` keys (`self.KEY`) and the table's
(`self.vllm.KEY`).
"""

from __future__ import annotations

import ast
from typing import Any, Iterator, Mapping

from ..model import UNKNOWN, LineIndex, Setting, Span
from ..records import record
from . import fork_conditions, fork_source

OWNER = "the forked prime-rl"


@record(unsafe_hash=True)
class Line:
    """A value the fork writes, with where (its line, as a span of the fork's file) and its text."""

    value: Any
    span: Span
    text: str

    def setting(self, name: str) -> Setting:
        return Setting(name, self.value, self.span, f"{self.text} ({self.owner_line()})", implied=True)

    def owner_line(self) -> str:
        return f"{OWNER}'s {self.span.path.rsplit('/', 1)[-1]}:{self.span.start_line}"


@record(unsafe_hash=True)
class Validated:
    """A replay field the table's own code sets: `line` (the value, UNKNOWN when not a literal);
    `tests`: the `if` tests it sits under, as text (None: under a loop or a branch not read), over
    the table's keys as `holder` gives them (`self.KEY`, or the dict `data.get("KEY")`); `before`: set in the file's dict before validation (the
    file's key read, a field's default not), `only_unset` only where the file lacks the key."""

    name: str
    line: Line
    tests: tuple[str, ...] | None
    holder: str = "self"
    before: bool = False
    only_unset: bool = False


@record(unsafe_hash=True)
class Table:
    """`defaults`: every field's literal default (UNKNOWN: not a literal), `changed`: the keys the
    table's code may set (its tests of them are not read), `validated`: its writes of replay fields,
    in the order pydantic runs them, `field_checked`: replay fields a field validator may change;
    `table`: for `InferenceConfig`'s code, which sets them as `self.vllm.X`, the `[vllm]` table
    (its keys read as `self.vllm.KEY`, `changed` naming them `vllm.KEY`)."""

    defaults: Mapping[str, Line]
    changed: frozenset[str]
    validated: tuple[Validated, ...]
    field_checked: frozenset[str] = frozenset()
    table: Table | None = None

    def apply(self, settings: dict[str, Setting], written: Mapping[str, Setting], table_written: Mapping[str, Setting] = {}) -> None:
        """Its writes over `settings`, where `written` holds the file's own keys of the table
        (`table_written`: those of the `[vllm]` table, for `InferenceConfig`'s code)."""
        for name in self.field_checked & settings.keys():
            settings[name] = Setting(name, UNKNOWN, settings[name].span, f"{settings[name].spelling} (a field validator of {OWNER})")
        for write in self.validated:
            if write.only_unset and (write.name in written or (not write.before and write.name in self.defaults)):
                continue
            holds, deciding = self._holds(write, written, table_written)
            if holds is False:
                continue
            setting = write.line.setting(write.name)
            if holds is None:
                setting = Setting(write.name, UNKNOWN, setting.span, setting.spelling, implied=True)
            elif deciding is not None:
                said = f"{deciding.spelling} ({write.line.owner_line()} then sets {write.line.text})"
                setting = Setting(write.name, write.line.value, deciding.span, said, implied=True, via=(write.line.span,))
            settings[write.name] = setting

    def _holds(
        self, write: Validated, written: Mapping[str, Setting], table_written: Mapping[str, Setting]
    ) -> tuple[bool | None, Setting | None]:
        """Whether the write's tests hold (None: not known), and the file's key that decides them."""
        if write.tests is None:
            return None, None
        read: list[Setting] = []
        for test in write.tests:
            found = fork_conditions.evaluated(
                ast.parse(test, mode="eval").body, lambda node: self._read(node, written, table_written, write, read), {}
            )
            if found is UNKNOWN:
                return None, None
            if not found:
                return False, None
        return True, next(iter(read), None)

    def _read(
        self, node: ast.expr, written: Mapping[str, Setting], table_written: Mapping[str, Setting], write: Validated, read: list[Setting]
    ) -> Any:
        if isinstance(node, ast.Name) and node.id == write.holder != "self":
            values = {} if write.before else {key: line.value for key, line in self.defaults.items()}
            return _Keys({**values, **{key: setting.value for key, setting in written.items()}}, self.changed, written, read)
        path = ast.unparse(node).split(".") if isinstance(node, ast.Attribute) and write.holder == "self" else []
        if path == ["self", "model_extra"]:  # the file's keys no field types
            extra = {key: setting for key, setting in written.items() if key not in self.defaults}
            return _Keys({key: setting.value for key, setting in extra.items()}, self.changed, extra, read)
        if len(path) == 2 and path[0] == "self":
            return self._value(path[1], written, read)
        if len(path) == 3 and path[:2] == ["self", "vllm"] and self.table is not None and f"vllm.{path[2]}" not in self.changed:
            return self.table._value(path[2], table_written, read)
        return UNKNOWN

    def _value(self, key: str, written: Mapping[str, Setting], read: list[Setting]) -> Any:
        """`self.KEY`: the file's value, else the field's literal default."""
        if key in self.changed:
            return UNKNOWN
        if key in written:
            read.append(written[key])
            return written[key].value
        default = self.defaults.get(key)
        return default.value if default is not None else UNKNOWN


class _Keys(dict):
    """The table's keys as a validator's dict holds them (`data.get("KEY")`), noting the file's
    keys read; one the table's code may change reads as unknown."""

    def __init__(self, values: Mapping[str, Any], changed: frozenset[str], written: Mapping[str, Setting], read: list[Setting]) -> None:
        super().__init__(values)
        self.changed, self.written, self.read = changed, written, read

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.extend([self.written[key]] if key in self.written else [])
        return UNKNOWN if key in self.changed else super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.read.extend([self.written[key]] if key in self.written else [])
        return UNKNOWN if key in self.changed else super().__getitem__(key)


def read(chain: list[ast.ClassDef], index: LineIndex, replay_fields: frozenset[str]) -> Table:
    """The table whose classes are `chain` (base first)."""
    defaults = {name: line for cls in chain for name, line in field_defaults(cls, index).items()}
    methods = [(kind, node) for node in _run(chain) if (kind := _kind(node)) is not None]
    order = {"before": 0, "wrap": 0, "field": 1, "post_init": 2, "after": 3, "after-dict": 3}
    validated: list[Validated] = []
    changed: set[str] = set()
    field_checked: set[str] = set()
    for kind, method in sorted(methods, key=lambda pair: order[pair[0].split(":")[0]]):
        if kind.startswith("field:"):
            names = set(kind[len("field:") :].split(","))
            if not _returns_its_value(method):
                changed.update(names)
                field_checked.update(names & replay_fields)
            continue
        for write in _writes(method, kind, index):
            changed.add(write.name)
            if write.name in replay_fields:
                validated.append(write)
    return Table(defaults, frozenset(changed), tuple(validated), frozenset(field_checked))


def _run(chain: list[ast.ClassDef]) -> list[ast.FunctionDef]:
    """The methods of the chain that run, base first: a subclass's method of a base's name hides
    the base's unless it calls `super().NAME(...)`."""
    hidden: set[str] = set()
    found: list[ast.FunctionDef] = []
    for cls in reversed(chain):
        own = [node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name not in hidden]
        found[:0] = own
        hidden.update(node.name for node in own if not _calls_super(node))
    return found


def _calls_super(method: ast.FunctionDef) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method.name
        and isinstance(node.func.value, ast.Call)
        and _is_name(node.func.value.func, "super")
        for node in ast.walk(method)
    )


def _kind(node: ast.stmt) -> str | None:
    """What table code a method is: "before", "post_init", "after" ("after-dict": v1's `values`),
    "field:A,B" (a field validator of A and B), "wrap", or None (none)."""
    if not isinstance(node, ast.FunctionDef):
        return None
    if node.name == "model_post_init":
        return "post_init"
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        name = fork_source.callee_name(call) if call is not None else getattr(decorator, "id", getattr(decorator, "attr", ""))
        options = {keyword.arg: fork_source.literal(keyword.value) for keyword in (call.keywords if call is not None else ())}
        if name == "model_validator":
            return {"before": "before", "after": "after"}.get(options.get("mode"), "wrap")
        if name == "root_validator":
            return "before" if options.get("pre") is True else "after-dict"
        if name in ("field_validator", "validator") and call is not None:
            fields = [value for argument in call.args if isinstance(value := fork_source.literal(argument), str)]
            return "field:" + ",".join(fields)
    return None


def read_inference(cls: ast.ClassDef, index: LineIndex, replay_fields: frozenset[str], table: Table) -> Table:
    """`InferenceConfig`'s own code (`model_post_init`, then its after validators, which run once
    the `[vllm]` table's have) setting the table's replay fields: `self.vllm.X = value`."""
    methods = [(kind, node) for node in _run([cls]) if (kind := _kind(node)) in ("post_init", "after")]
    ordered = sorted(methods, key=lambda pair: pair[0] == "after")
    validated = [write for kind, method in ordered for write in _writes(method, kind, index, "vllm") if write.name in replay_fields]
    assigned = [target for node in ast.walk(cls) if isinstance(node, (ast.Assign, ast.AugAssign)) for target in _targets(node)]
    changed = {text.split(".", 1)[1] for target in assigned if (text := ast.unparse(target)).startswith("self.")}
    return Table(field_defaults(cls, index), frozenset(changed), tuple(validated), table=table)


def _targets(node: ast.Assign | ast.AugAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _writes(method: ast.FunctionDef, kind: str, index: LineIndex, table: str = "") -> Iterator[Validated]:
    """The method's writes of the table's keys (of `self.TABLE`'s, where `table` names one), each
    with the tests it sits under."""
    parameters = [argument.arg for argument in method.args.args]
    on_self = kind in ("after", "post_init")
    holder = parameters[0] if on_self else parameters[1] if len(parameters) > 1 else ""
    before = kind == "before"
    for statement, tests in _conditions(method.body):
        found: list[tuple[str, ast.expr, bool]] = []
        if on_self and (write := _attribute_write(statement, f"{holder}.{table}" if table else holder)) is not None:
            found.append((*write, False))
        elif not on_self:
            found += [(key, value, False) for name, key, value in fork_source.key_writes(statement) if name == holder]
            found += [(key, value, True) for name, key, value in fork_source.default_writes(statement) if name == holder]
        for key, value, only_unset in found:
            text = f"{key} = {fork_source.snippet(index.text, value)}"
            known = fork_source.literal(value) if kind != "wrap" else UNKNOWN
            line = Line(known, fork_source.line_span(index.path, index.text, statement.lineno), text)
            yield Validated(key, line, tests if kind != "wrap" else None, "self" if on_self else holder, before, only_unset)


def _attribute_write(statement: ast.stmt, owner: str) -> tuple[str, ast.expr] | None:
    """`OWNER.key = value` and `setattr(OWNER, "key", value)`, OWNER as written (`self`, `self.vllm`)."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(target := statement.targets[0], ast.Attribute):
        return (target.attr, statement.value) if ast.unparse(target.value) == owner else None
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and _is_name(call.func, "setattr"):
        if len(call.args) == 3 and ast.unparse(call.args[0]) == owner and isinstance(key := fork_source.literal(call.args[1]), str):
            return key, call.args[2]
    return None


def _conditions(body: list[ast.stmt], tests: tuple[str, ...] | None = ()) -> Iterator[tuple[ast.stmt, tuple[str, ...] | None]]:
    """Each statement with the `if` tests it runs under (None: a loop's body, a handler's)."""
    for statement in body:
        if isinstance(statement, ast.If):
            test = ast.unparse(statement.test)
            yield from _conditions(statement.body, None if tests is None else (*tests, test))
            yield from _conditions(statement.orelse, None if tests is None else (*tests, f"not ({test})"))
            ends = statement.body and isinstance(statement.body[-1], (ast.Return, ast.Raise))
            if ends and not statement.orelse and tests is not None:
                tests = (*tests, f"not ({test})")  # `if TEST: return self`: what follows runs where TEST does not hold
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from _conditions(statement.body, tests)
        elif isinstance(statement, (ast.For, ast.AsyncFor, ast.While, ast.Try)):
            for inner in ast.walk(statement):
                if isinstance(inner, (ast.Assign, ast.Expr)):
                    yield inner, None
        else:
            yield statement, tests


def _returns_its_value(method: ast.FunctionDef) -> bool:
    """Whether every `return` of a field validator gives back the value it was given (a check)."""
    parameters = [argument.arg for argument in method.args.args]
    value = parameters[1] if len(parameters) > 1 and parameters[0] in ("cls", "self") else parameters[0] if parameters else ""
    returns = [node for node in ast.walk(method) if isinstance(node, ast.Return)]
    return bool(returns) and all(_is_name(node.value, value) for node in returns)


def field_defaults(cls: ast.ClassDef, index: LineIndex, names: frozenset[str] | None = None) -> dict[str, Line]:
    """`name: type = literal` (or `Field(literal, ...)`) of the class's fields (of `names` only)."""
    found = {}
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name = node.target.id
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "Field" and value.args:
                value = value.args[0]
            if names is None or name in names:
                found[name] = Line(
                    fork_source.literal(value),
                    fork_source.line_span(index.path, index.text, node.lineno),
                    f"{name} = {fork_source.snippet(index.text, value)}",
                )
    return found


def vllm_classes(classes: Mapping[str, ast.ClassDef]) -> list[ast.ClassDef]:
    """The classes of the `[inference.vllm]` table, base first: `VllmConfig`, then the subclass of
    it that `InferenceConfig.vllm` is typed with (`vllm: ReplayVllmConfig = Field(...)`), whose
    fields pass through as `VllmConfig`'s do (`to_namespace` reads `type(self.vllm).model_fields`)."""
    inference = classes.get("InferenceConfig")
    typed = next(
        (
            node.annotation.id
            for node in (inference.body if inference is not None else ())
            if isinstance(node, ast.AnnAssign) and _is_name(node.target, "vllm") and isinstance(node.annotation, ast.Name)
        ),
        "VllmConfig",
    )
    chain: list[ast.ClassDef] = []
    while typed in classes and classes[typed] not in chain:
        chain.append(classes[typed])
        bases = [base.id for base in classes[typed].bases if isinstance(base, ast.Name)]
        typed = bases[0] if typed != "VllmConfig" and len(bases) == 1 else ""
    if chain and chain[-1].name == "VllmConfig":
        return chain[::-1]
    return [classes["VllmConfig"]] if "VllmConfig" in classes else []


def _is_name(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
