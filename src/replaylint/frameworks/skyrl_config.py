"""A SkyRL fork's `skyrl/train/config/config.py` (`skyrl_fork`): the values its config classes
declare rather than build, read with CPython's parser: the literal default of
`InferenceEngineConfig.engine_init_kwargs`, the keys its `__post_init__` writes into that dict (SkyRL
builds its config with `datacls(**kwargs)`, `build_nested_dataclass`, so the hook runs on the launch's
values), and the `SamplingParams(...)` it gives unset eval requests."""

from __future__ import annotations

import ast
from dataclasses import replace

from ..model import UNKNOWN
from ..records import record
from .built_dicts import BuiltDict, Written
from .fork_conditions import after_early_returns, guarded
from .fork_source import dict_pairs, literal, merged_around, parse, renamed, snippet

_PASS_THROUGH = "self.engine_init_kwargs"
_UNDER, _OVER = frozenset(("setdefault",)), frozenset(("update",))
_READS = frozenset(("get", "items", "keys", "values"))


@record(unsafe_hash=True)
class PostInit:
    """The keys `InferenceEngineConfig.__post_init__` writes into `engine_init_kwargs`: `under` the
    launch's keys (`{"k": v, **self.engine_init_kwargs}`, `setdefault`), `over` them (`{**self.
    engine_init_kwargs, "k": v}`, `d["k"] = v`, `update`), each under the hook's `if` spelt on the
    engine config (`self.x` -> `ie_cfg.x`), each at its line of the config's file; and the writes not
    read here (a value that drops the launch's keys, a merge of a dict not read, the dict handed on)."""

    under: tuple[Written, ...] = ()
    over: tuple[Written, ...] = ()
    unread: tuple[Written, ...] = ()


def post_init(path: str, text: str) -> PostInit | None:
    """What the fork's `InferenceEngineConfig.__post_init__` writes into `engine_init_kwargs`
    (None: no such hook, or it leaves the dict as it is)."""
    module = parse(text)
    classes = [n for n in ast.walk(module) if isinstance(n, ast.ClassDef) and n.name == "InferenceEngineConfig"] if module else []
    hooks = [n for n in classes[0].body if isinstance(n, ast.FunctionDef) and n.name == "__post_init__"] if len(classes) == 1 else []
    if len(hooks) != 1:
        return None
    under: dict[str, Written] = {}
    over: dict[str, Written] = {}
    unread: list[Written] = []
    body, early = after_early_returns(hooks[0].body)  # `if not self.replay: return` first
    for statement, condition in guarded(body, early):
        test = renamed(condition, {"self": "ie_cfg"}) if condition else ""
        writes = _writes(statement)
        if writes is None:
            unread.append(Written("", UNKNOWN, ast.unparse(statement).split("\n", 1)[0], statement.lineno, True, test))
            continue
        for late, key, node in writes:
            if key is None:
                unread.append(Written("", UNKNOWN, snippet(text, node), node.lineno, late, test))
                continue
            made = Written(key, literal(node), snippet(text, node), node.lineno, late, test, path=path, source=text)
            if late:  # under a test, over a value written before: which one holds is not read here
                over[key] = replace(made, value=UNKNOWN, condition="") if test and key in over else made
            elif key not in under and key not in over:  # a key already there stays
                under[key] = made
    found = PostInit(tuple(under.values()), tuple(over.values()), tuple(unread))
    return found if under or over or unread else None


def _writes(statement: ast.stmt) -> list[tuple[bool, str | None, ast.expr]] | None:
    """The keys one statement of the hook writes into the dict: (over the launch's, key, value), a
    key None for a part not read here; None: the dict used in a way not read here."""
    target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
    if target is not None and ast.unparse(target) == _PASS_THROUGH:
        around = merged_around(statement.value, _PASS_THROUGH)  # type: ignore[union-attr]
        if around is None:
            return None  # the launch's keys dropped, or merged in a way not read here
        return [*_pairs(around[0], False), *_pairs(around[1], True)]
    if isinstance(target, ast.Subscript) and ast.unparse(target.value) == _PASS_THROUGH:
        key = literal(target.slice)
        return [(True, key if isinstance(key, str) else None, statement.value)]  # type: ignore[union-attr]
    if isinstance(statement, ast.AugAssign) and ast.unparse(statement.target) == _PASS_THROUGH:
        return _pairs([(None, statement.value)], True)
    call = statement.value if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) else None
    if call is not None and isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) == _PASS_THROUGH:
        return _method(call)
    if isinstance(statement, ast.Return):
        return None  # the writes after it may not run
    if isinstance(statement, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
        return []  # a test may read the dict; the writes under it are read on their own
    return None if _handed_on(statement) else []


def _handed_on(statement: ast.stmt) -> bool:
    """Whether a statement uses the dict otherwise than reading it (`.get(...)`, `"k" in ...`)."""
    uses = [n for n in ast.walk(statement) if ast.unparse(n) == _PASS_THROUGH]
    reads = {id(n.value) for n in ast.walk(statement) if isinstance(n, ast.Attribute) and n.attr in _READS}
    tested = {id(c) for n in ast.walk(statement) if isinstance(n, ast.Compare) for c in n.comparators}
    return any(id(n) not in reads | tested for n in uses)


def _method(call: ast.Call) -> list[tuple[bool, str | None, ast.expr]] | None:
    name, args = call.func.attr, call.args  # type: ignore[attr-defined]
    if name in _UNDER and len(args) == 2 and isinstance(key := literal(args[0]), str):
        return [(False, key, args[1])]
    if name in _OVER and not [k for k in call.keywords if k.arg is None]:
        return [*_pairs([(None, a) for a in args], True), *((True, k.arg, k.value) for k in call.keywords)]
    return None if name not in _READS else []


def _pairs(parts: list[tuple[str | None, ast.expr]], late: bool) -> list[tuple[bool, str | None, ast.expr]]:
    """The literal keys of merged parts (a dict literal spread whole gives its own); a part not read: key None."""
    found: list[tuple[bool, str | None, ast.expr]] = []
    for key, node in parts:
        pairs = [(key, node)] if key is not None else dict_pairs(node)
        found += [(late, k, v) for k, v in pairs] if pairs is not None else [(late, None, node)]
    return found


def eval_default(path: str, text: str) -> BuiltDict | None:
    """The literal `temperature`/`top_k` of the `SamplingParams(...)` the config assigns to
    `self.eval_sampling_params` when the launch writes none (SkyRL's: `temperature=0.0`), each at its line."""
    module = parse(text)
    for node in ast.walk(module) if module is not None else ():
        if isinstance(node, ast.Assign) and isinstance(target := node.targets[0], ast.Attribute) and target.attr == "eval_sampling_params":
            call = node.value
            if isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "SamplingParams":
                given = (Written(k.arg, literal(k.value), snippet(text, k.value), k.value.lineno, True) for k in call.keywords if k.arg)
                return BuiltDict(path, {w.key: w for w in given if w.key in ("temperature", "top_k") and w.value is not UNKNOWN})
    return None


def engine_defaults(path: str, text: str) -> BuiltDict | None:
    """`engine_init_kwargs: Dict[str, Any] = field(default_factory=lambda: {...})` (or `dict(...)`)
    in the fork's config: its literal keys."""
    module = parse(text)
    for node in ast.walk(module) if module is not None else ():
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "engine_init_kwargs" and node.value is not None:
            factory = next((k.value for k in getattr(node.value, "keywords", ()) if k.arg == "default_factory"), None)
            made = factory.body if isinstance(factory, ast.Lambda) else None
            pairs = (
                zip(made.keys, made.values)
                if isinstance(made, ast.Dict)
                else ((k.arg, k.value) for k in made.keywords)
                if isinstance(made, ast.Call) and getattr(made.func, "id", "") == "dict"
                else ()
            )
            entries = {}
            for key, value in pairs:
                name = key if isinstance(key, str) else literal(key) if key is not None else None
                if isinstance(name, str):
                    entries[name] = Written(name, literal(value), snippet(text, value), value.lineno, True)
            return BuiltDict(path, entries, text=text) if entries else None
    return None
