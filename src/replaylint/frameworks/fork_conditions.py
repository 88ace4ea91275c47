"""The tests a fork's code makes: the `if` each statement of a function sits under (`guarded`), and
those tests decided where the values they read are known: `if` conditions
over a launch's configuration (`decided`, `config_read`) and over the values the code itself
builds (`evaluated`: `isinstance(spec, dict) and spec.get("num_speculative_tokens") == 0`).
CPython's parser only; nothing of the tree runs."""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Mapping

from ..model import UNKNOWN, Setting
from ..records import record
from .fork_source import callee_name, is_environ, literal

RUNS_IT = " runs it"  # the condition of a loop's body or a handler's: it may run any number of times


def guarded(body: list[ast.stmt], condition: str = "") -> Iterator[tuple[ast.stmt, str]]:
    """The statements of a function body in order, each with the branch it sits under."""
    for statement in body:
        yield statement, condition
        if isinstance(statement, ast.If):
            test = ast.unparse(statement.test)
            yield from guarded(statement.body, both(condition, test))
            yield from guarded(statement.orelse, both(condition, f"not ({test})"))
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from guarded(statement.body, condition)
        elif isinstance(statement, (ast.For, ast.AsyncFor, ast.While, ast.Try)):
            for part in ("body", "orelse", "handlers", "finalbody"):
                inner = getattr(statement, part, [])
                inner = [s for handler in inner for s in handler.body] if part == "handlers" else inner
                yield from guarded(inner, both(condition, f"a {type(statement).__name__.lower()}{RUNS_IT}"))


def both(condition: str, test: str) -> str:
    return f"{condition} and {test}" if condition else test


def if_tests(condition: str) -> str:
    """The `if` tests of a condition, its loops' and handlers' left out."""
    return " and ".join(part for part in condition.split(" and ") if not part.endswith(RUNS_IT)) if condition else ""


def loops_only(condition: str) -> bool:
    """Whether a condition is only that of loops' bodies (no `if`)."""
    return all(part.endswith(RUNS_IT) for part in condition.split(" and ")) if condition else True


def within(condition: str, home: str) -> str | None:
    """`condition` inside the block whose condition is `home` (None: outside it)."""
    if condition == home or not home:
        return "" if home else condition
    return condition[len(home) + 5 :] if condition.startswith(home + " and ") else None


def decided(condition: str, value_of: Callable[[ast.expr], Any]) -> bool | None:
    """Whether the `if` tests a write sits under (`built_dicts`' condition text: tests joined by
    `and`, `not (...)`) hold, each test's value by `value_of` (a configuration read -> its value,
    UNKNOWN when it cannot tell); None: not decided here (a loop's body, a test not read)."""
    try:
        test = ast.parse(condition, mode="eval").body if condition else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return _holds(test, value_of) if test is not None else True


def _holds(test: ast.expr, value_of: Callable[[ast.expr], Any]) -> bool | None:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        parts = [_holds(value, value_of) for value in test.values]
        return False if False in parts else None if None in parts else True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _holds(test.operand, value_of)
        return None if inner is None else not inner
    value = value_of(test)
    return None if value is UNKNOWN or not isinstance(value, (bool, int, float, str, type(None), list, tuple, dict)) else bool(value)


def tested(condition: str) -> list[ast.expr]:
    """The expressions an `if` test's text reads."""
    try:
        return [node for node in ast.walk(ast.parse(condition, mode="eval")) if isinstance(node, ast.expr)]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []


def config_read(node: ast.expr, *owners: str) -> tuple[str, Any] | None:
    """A read of a configuration key on an object `owners` spell (`self.config`, `ie_cfg`):
    `OWNER.key`, `OWNER["key"]`, `OWNER.get("key", default)` -> (key, the default's literal, or
    UNKNOWN when none is written)."""
    if isinstance(node, ast.Attribute) and ast.unparse(node.value) in owners:
        return node.attr, UNKNOWN
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in owners and isinstance(key := literal(node.slice), str):
        return key, UNKNOWN
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        if ast.unparse(node.func.value) in owners and isinstance(key := literal(node.args[0]), str):
            return key, literal(node.args[1]) if len(node.args) > 1 else None
    return None


def config_value(
    node: ast.expr, owners: tuple[str, ...], value_of: Callable[[str, Any], Any], default_of: Callable[[str, Any], Any]
) -> Any:
    """The value of a configuration key a test reads (`config_read` on `owners`): `value_of` the
    key and its default (`default_of` the key and the code's default); UNKNOWN for another test."""
    read = config_read(node, *owners)
    if read is None:
        return UNKNOWN
    key, default = read
    return value_of(key, default_of(key, default))


def env_variable(node: ast.AST) -> str | None:
    """The variable `os.environ.get("X", ...)`, `os.getenv("X", ...)`, `os.environ["X"]` reads."""
    if isinstance(node, ast.Subscript) and is_environ(node.value):
        name = literal(node.slice)
    elif isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
        owner = node.func.value
        getenv = node.func.attr == "getenv" and isinstance(owner, ast.Name) and owner.id == "os"
        name = literal(node.args[0]) if getenv or (node.func.attr == "get" and is_environ(owner)) else None
    else:
        name = None
    return name if isinstance(name, str) else None


def env_read(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """The value an environment read gives where `env` holds the variable (UNKNOWN: another
    expression, or a variable `env` does not hold: set outside, or not at all, it is not known)."""
    name = env_variable(node)
    return env[name] if name is not None and name in env else UNKNOWN


def env_read_or_default(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """`env_read`, or, for a variable `env` lacks, the literal default of `os.environ.get("X", "1")`
    (`os.getenv`): what the program run as written reads, like an argparse default."""
    name = env_variable(node)
    if name is not None and name not in env and isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords:
        default = literal(node.args[1])
        return default if isinstance(default, str) else UNKNOWN
    return env_read(node, env)


def exported(env: Mapping[str, Setting]) -> dict[str, Any]:
    """What a launch exports, name -> value (UNKNOWN where only some of its paths export it)."""
    return {name: setting.value if setting.condition is None else UNKNOWN for name, setting in env.items()}


def exports_read(node: ast.expr, env: Mapping[str, Setting]) -> list[Setting]:
    """The launch's exports of the variables a test reads (where a finding resting on them sits)."""
    return [env[name] for inner in ast.walk(node) if (name := env_variable(inner)) is not None and name in env]


def declared_from_env(text: str, env: Mapping[str, Any]) -> Any:
    """A field default read from the environment when the record is made (`field(default_factory=
    lambda: os.getenv("X", "0") == "1")`, or written plainly) where `env` holds each variable it
    reads; UNKNOWN otherwise."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return UNKNOWN
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("field", "Field"):
        factory = next((keyword.value for keyword in node.keywords if keyword.arg == "default_factory"), None)
        node = factory.body if isinstance(factory, ast.Lambda) else None
    return env_test(node, env) if node is not None else UNKNOWN


def environment_attributes(module: ast.Module) -> dict[str, ast.expr]:
    """`self.NAME = <a test of environment reads>` (`os.environ.get("X", "0") == "1"` in a server's
    `__init__`), by `self.NAME`, where the module binds `self.NAME` only there."""
    bound: dict[str, list[ast.expr]] = {}
    for node in ast.walk(module):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        )
        for target in targets:
            if isinstance(target, ast.Attribute) and getattr(target.value, "id", "") == "self":
                bound.setdefault(f"self.{target.attr}", []).append(node.value or ast.Constant(None))  # type: ignore[union-attr]
    return {
        name: values[0]
        for name, values in bound.items()
        if len(values) == 1 and any(env_variable(inner) is not None for inner in ast.walk(values[0]))
    }


def env_test(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """The value of a test over environment reads (`os.environ.get("X", "0") == "1"`) where `env`
    (name -> value) holds each variable it reads; UNKNOWN otherwise."""
    return evaluated(node, lambda inner: env_read(inner, env), {})


_NUMBERS: Mapping[str, Callable[[str], Any]] = {"int": int, "float": float}


@record(unsafe_hash=True)
class EnvNumber:
    """A number the fork's code reads from an environment variable where it runs
    (`int(os.environ.get("X", "20"))`), also as a field's `default_factory=lambda: ...`."""

    variable: str
    convert: str  # `int`, `float`

    def given(self, text: Any) -> Any:
        """The number the variable's text makes (UNKNOWN: a text not known, or one the conversion refuses)."""
        try:
            return UNKNOWN if text is UNKNOWN else _NUMBERS[self.convert](str(text))
        except ValueError:
            return UNKNOWN


def env_number(node: ast.expr) -> EnvNumber | None:
    """`int(os.environ.get("X", D))` (`float`, `os.getenv`), as written or as the body of a field's
    `default_factory=lambda: ...` (`dataclasses.field`, pydantic's `Field`)."""
    if isinstance(node, ast.Call) and callee_name(node) in ("field", "Field") and not node.args:
        factory = next((keyword.value for keyword in node.keywords if keyword.arg == "default_factory"), None)
        node = factory.body if isinstance(factory, ast.Lambda) and not factory.args.args else None  # type: ignore[assignment]
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NUMBERS and len(node.args) == 1):
        return None
    variable = env_variable(node.args[0]) if not node.keywords else None
    return EnvNumber(variable, node.func.id) if variable is not None else None


def evaluated(node: ast.expr, read: Callable[[ast.expr], Any], bound: Mapping[str, ast.expr], depth: int = 0) -> Any:
    """The value of a test a fork's code makes on the values it builds (UNKNOWN when not read
    here): literals, `read` (a read of the dict at hand -> its value), the function's own names
    bound once (`bound`), `isinstance(x, dict)`, `x.get("k")` and `x["k"]` of a dict read here,
    comparisons, `and`/`or`/`not`."""
    found = read(node)
    if found is not UNKNOWN or depth > 8:
        return found
    again = lambda inner: evaluated(inner, read, bound, depth + 1)  # noqa: E731
    if isinstance(node, ast.Name) and node.id in bound:
        return again(bound[node.id])
    if isinstance(node, ast.BoolOp):
        values = [again(value) for value in node.values]
        if isinstance(node.op, ast.And) and any(v is not UNKNOWN and not v for v in values):
            return False
        if isinstance(node.op, ast.Or) and any(v is not UNKNOWN and v for v in values):
            return True
        return UNKNOWN if UNKNOWN in values else (all if isinstance(node.op, ast.And) else any)(bool(v) for v in values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = again(node.operand)
        return UNKNOWN if inner is UNKNOWN else not inner
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compared(node.ops[0], again(node.left), again(node.comparators[0]))
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance" and len(node.args) == 2:
        kinds = {"dict": dict, "list": list, "str": str, "int": int, "bool": bool, "float": float}
        value, kind = again(node.args[0]), kinds.get(getattr(node.args[1], "id", ""))
        return UNKNOWN if value is UNKNOWN or kind is None else isinstance(value, kind)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        owner, key = again(node.func.value), literal(node.args[0])
        default = literal(node.args[1]) if len(node.args) > 1 else None
        return owner.get(key, default) if isinstance(owner, dict) and isinstance(key, str) else UNKNOWN
    if isinstance(node, ast.Subscript):
        owner, key = again(node.value), literal(node.slice)
        return owner[key] if isinstance(owner, dict) and isinstance(key, str) and key in owner else UNKNOWN
    return literal(node)


def _compared(op: ast.cmpop, left: Any, right: Any) -> Any:
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    tests: dict[type, Callable[[Any, Any], Any]] = {
        ast.Eq: lambda a, b: a == b,
        ast.NotEq: lambda a, b: a != b,
        ast.Is: lambda a, b: a is b,
        ast.IsNot: lambda a, b: a is not b,
        ast.Lt: lambda a, b: a < b,
        ast.LtE: lambda a, b: a <= b,
        ast.Gt: lambda a, b: a > b,
        ast.GtE: lambda a, b: a >= b,
        ast.In: lambda a, b: a in b,
        ast.NotIn: lambda a, b: a not in b,
    }
    test = tests.get(type(op))
    try:
        return UNKNOWN if test is None else bool(test(left, right))
    except TypeError:
        return UNKNOWN


def bound_once(function: ast.AST) -> dict[str, ast.expr]:
    """The names a function binds exactly once, to the expression they are bound to."""
    bound: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)) and isinstance(
            getattr(node, "target", None), ast.Name
        ):
            bound.setdefault(node.target.id, []).extend([node.value] * 2 if getattr(node, "value", None) else [ast.Constant(None)] * 2)  # type: ignore[attr-defined]
    return {name: values[0] for name, values in bound.items() if len(values) == 1}


def after_early_returns(body: list[ast.stmt]) -> tuple[list[ast.stmt], str]:
    """A function's body after its leading `if TEST: return` statements, and the test the rest runs under."""
    condition = ""
    for index, statement in enumerate(body):
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):  # its docstring
            continue
        returns = isinstance(statement, ast.If) and not statement.orelse and len(statement.body) == 1
        if not (returns and isinstance(statement.body[0], ast.Return) and statement.body[0].value is None):  # type: ignore[attr-defined]
            return body[index:], condition
        condition = both(condition, f"not ({ast.unparse(statement.test)})")  # type: ignore[attr-defined]
    return [], condition
