"""Values of request bodies the engine readers leave unknown: a token map (`logit_bias={42: 5.0}`,
keyed by token id), and the URL an HTTP client is given (`f"http://localhost:{PORT}/v1"`), and
the defaults a body's keys rest on."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from ....model import UNKNOWN, Setting
from .facts import Kwargs, Val
from .frames import Evaluates, Frame, parameters
from .module import FUNCTIONS

_MAX_DEPTH = 8


def token_map(reader: Evaluates, node: ast.Dict, frame: Frame) -> Val | None:
    """A dict literal keyed only by token ids (integer literals, or names bound to them:
    `{EOS_ID: -100}`), as its value; None for any other dict."""
    if not node.keys or any(key is None or isinstance(key, ast.Constant) and not _token_id(key.value) for key in node.keys):
        return None
    keys = [_token_key(reader, key, frame) for key in node.keys]  # type: ignore[arg-type]
    if not all(_token_id(key) or isinstance(key, str) and key.isdigit() for key in keys):
        return None
    values = [reader.evaluate(value, frame).value for value in node.values]
    return Val(dict(zip(keys, values)), span=frame.module.span(node))


def resting_keys(body: Val, within: str = "") -> dict[str, Setting]:
    """The keys of a request body (of its dict `within`, `sampling_params`), each with the
    defaults its value rests on as its condition ("`THINK_BUDGET` is unset": an environment
    variable's default the program uses when run as written)."""
    keys, kwargs = body.keys, body.kwargs
    if within:
        entry = kwargs.entries.get(within) if kwargs is not None else None
        keys, kwargs = body.keys[within].keys, entry.ref if entry is not None and isinstance(entry.ref, Kwargs) else None
    entries = kwargs.entries if kwargs is not None else {}
    found = {}
    for name, setting in keys.items():
        said = " and ".join(dict.fromkeys(c for c, _ in entries[name].assumptions)) if name in entries else ""
        found[name] = replace(setting, condition=said) if said and setting.condition is None else setting
    return found


def sent_fields(reader: Evaluates, given: ast.expr | None, frame: Frame, written: Frame | None = None) -> tuple[dict[str, Setting], bool]:
    """The sampling fields a JSON body `given` sends, and whether it may send more. `written`: the
    frame of a function no caller in the tree calls, its parameters' defaults bound
    (`client_factories.as_written`): the body is read there when every field those defaults
    decide says so (its condition, "when the caller of `generate` passes no `sampling`")."""
    settings, open_ended = _sent(reader.evaluate(given, frame))
    if open_ended and written is not None and written is not frame:
        by_default, still_open = _sent(reader.evaluate(given, written))
        if all(s.condition or (n in settings and settings[n].value == s.value) for n, s in by_default.items()):
            return by_default, still_open
    return settings, open_ended


def _sent(body: Val) -> tuple[dict[str, Setting], bool]:
    settings = resting_keys(body)
    inner = settings.pop("sampling_params", None)
    if inner is not None:
        settings.update(resting_keys(body, "sampling_params"))
    context = settings.pop("parse_context", None)
    if context is not None and "include_reasoning" in context.keys:
        settings["include_reasoning"] = context.keys["include_reasoning"]
    return settings, body.value is UNKNOWN or (inner is not None and inner.value is UNKNOWN)


def spread_fields(
    reader: Evaluates, node: ast.Call, frame: Frame, fields: tuple[str, ...], extras: tuple[str, ...]
) -> tuple[dict[str, Setting], bool]:
    """The sampling fields the dicts spread into an OpenAI client's call send (`**sampling_args`,
    as Python passes keywords): their keys among `fields` and the keys of their dicts `extras`
    (`extra_body`, which the client puts in the body), and whether it may send more (a dict not
    known, a key written under a branch not decided here)."""
    sent: dict[str, Setting] = {}
    unread = False
    for item in (item for item in node.keywords if item.arg is None):
        spread = reader.evaluate(item.value, frame)
        kwargs = spread.kwargs
        if kwargs is None or kwargs.reasons:
            unread = True
            continue
        sent.update({name: setting for name, setting in _unguarded(kwargs, resting_keys(spread)).items() if name in fields})
        unread = unread or any(entry.guards for entry in kwargs.entries.values())
        for name in (name for name in extras if name in kwargs.entries and not kwargs.entries[name].guards):
            inner = kwargs.entries[name].ref
            sent.update(_unguarded(inner, resting_keys(spread, name)) if isinstance(inner, Kwargs) else resting_keys(spread, name))
            unread = (
                unread or spread.keys[name].value is UNKNOWN or isinstance(inner, Kwargs) and any(e.guards for e in inner.entries.values())
            )
    return sent, unread


def _unguarded(kwargs: Kwargs, keys: dict[str, Setting]) -> dict[str, Setting]:
    """The keys not written under a branch (a fix or a finding needs the key there on every path)."""
    return {name: setting for name, setting in keys.items() if name not in kwargs.entries or not kwargs.entries[name].guards}


def _token_key(reader: Evaluates, key: ast.expr, frame: Frame) -> Any:
    """A token id, or its text when a JSON body spells it `str(EOS_ID)`."""
    if isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == "str" and len(key.args) == 1 and not key.keywords:
        value = reader.evaluate(key.args[0], frame).value
        return str(value) if _token_id(value) else UNKNOWN
    return reader.evaluate(key, frame).value


def _token_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def text(reader: Evaluates, node: ast.expr | None, frame: Frame, depth: int = 0) -> Any:
    """A string an expression is known to be (an f-string or a sum of known parts too, bound
    once to a name of the function or the module), else UNKNOWN."""
    if depth > _MAX_DEPTH:
        return UNKNOWN
    if isinstance(node, ast.Name):
        value = bound_once(frame, node.id)
        if isinstance(value, (ast.JoinedStr, ast.BinOp)) or isinstance(value, ast.Call) and environment_default(value):
            return text(reader, value, frame, depth + 1)
    if isinstance(node, ast.Call) and (default := environment_default(node)) is not None:
        return text(reader, default, frame, depth + 1)  # the program's own default, as `${PORT:-8001}` in a shell
    if isinstance(node, ast.JoinedStr):
        parts = [
            text(reader, part.value, frame)
            if isinstance(part, ast.FormattedValue) and part.format_spec is None
            else text(reader, part, frame)
            for part in node.values
        ]
        return "".join(str(part) for part in parts) if all(part is not UNKNOWN for part in parts) else UNKNOWN
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text(reader, node.left, frame, depth + 1), text(reader, node.right, frame, depth + 1)
        return left + right if isinstance(left, str) and isinstance(right, str) else UNKNOWN
    value = reader.evaluate(node, frame).value if node is not None else UNKNOWN
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else UNKNOWN


def environment_default(node: ast.Call) -> ast.expr | None:
    """The default of `os.environ.get("VLLM_PORT", "8011")` or `os.getenv(...)`, else None."""
    func = node.func
    named = ast.unparse(func) in ("os.getenv", "os.environ.get", "getenv", "environ.get")
    return node.args[1] if named and len(node.args) == 2 and not node.keywords else None


def address_condition(node: ast.expr | None, frame: Frame, depth: int = 0) -> str:
    """What a client's address rests on: "`VLLM_PORT` is unset" for each environment variable
    whose default it was read with (in the expression, or a name bound once to one)."""
    names: list[str] = []
    for part in ast.walk(node) if node is not None and depth <= _MAX_DEPTH else ():
        if isinstance(part, ast.Call) and environment_default(part) is not None and isinstance(part.args[0], ast.Constant):
            names.append(f"`{part.args[0].value}` is unset")
        elif isinstance(part, ast.Name) and (value := bound_once(frame, part.id)) is not None:
            names.extend(c for c in address_condition(value, frame, depth + 1).split(" and ") if c)
    return " and ".join(dict.fromkeys(names))


def bound_once(frame: Frame, name: str) -> ast.expr | None:
    """The one value a name is assigned in the function read (else the module), if it is no
    parameter and nothing else binds it (a loop, an import, a `with`, a second assignment)."""
    if name in _parameters(frame.scope):
        return None
    module = frame.module
    statements = [placed.statement for placed in module.binders(frame.scope, name)] or [
        placed.statement for placed in module.binders(module.tree, name)
    ]
    if len(statements) != 1 or not isinstance(statements[0], (ast.Assign, ast.AnnAssign)):
        return None
    targets = statements[0].targets if isinstance(statements[0], ast.Assign) else [statements[0].target]
    return _unpacked(targets[0], statements[0].value, name) if len(targets) == 1 else statements[0].value


def _unpacked(target: ast.expr, value: ast.expr | None, name: str) -> ast.expr | None:
    """What `name` gets of `value`: all of it, or its item where the target unpacks it (`client,
    model = make_client()`: `make_client()[0]`); None for a starred target."""
    if not isinstance(target, (ast.Tuple, ast.List)) or value is None:
        return value
    names = [element.id if isinstance(element, ast.Name) else None for element in target.elts]
    if any(isinstance(element, ast.Starred) for element in target.elts) or names.count(name) != 1:
        return None
    index = names.index(name)
    if isinstance(value, (ast.Tuple, ast.List)):
        return value.elts[index] if len(value.elts) == len(names) and not any(isinstance(e, ast.Starred) for e in value.elts) else None
    return ast.copy_location(ast.Subscript(value, ast.Constant(index), ast.Load()), value)


def _parameters(scope: ast.AST) -> set[str]:
    if not isinstance(scope, FUNCTIONS):
        return set()
    stars = (scope.args.vararg, scope.args.kwarg)
    return {argument.arg for argument in (*parameters(scope), *stars) if argument is not None}
