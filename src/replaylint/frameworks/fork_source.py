"""The source of an RL framework's fork in the checked tree, read with CPython's parser (nothing
of the tree is imported or run): the literal values its code writes, statement by statement.
What `nemo_rl_fork` and `open_instruct_fork` share."""

from __future__ import annotations

import ast
import functools
import warnings
from typing import Any, Iterator, Mapping

from ..model import UNKNOWN, LineIndex, Setting, Span
from ..records import record

MASK = "return_sampling_mask"


@record(unsafe_hash=True)
class Written:
    """A value the fork's code writes, its line, and its text."""

    value: Any
    line: int
    text: str
    nested: tuple[tuple[str, Any, int], ...] = ()  # a dict literal's own literal keys: (key, value, line)


@functools.lru_cache(maxsize=32)
def parse(text: str) -> ast.Module | None:
    """The module a fork's file holds (None: Python cannot parse it), parsed once for all the fork
    readers of a launch (OpenRLHF's reads `vllm_engine.py` and `train_ppo_ray.py` three times); the
    trees are read, never changed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def renamed(code: str, names: Mapping[str, str]) -> str:
    """An expression of a helper spelled in the names its caller passes (`cfg.vllm.X` -> `args.vllm.X`;
    text that is no expression, as it was)."""
    try:
        tree = ast.parse(code, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            node.id = names[node.id]
    return ast.unparse(tree)


def snippet(text: str, node: ast.AST) -> str:
    """The node's source on one line."""
    return " ".join((ast.get_source_segment(text, node) or "").split())


def statements(body: list[ast.stmt], functions: bool = False, top: bool = True) -> Iterator[tuple[ast.stmt, bool]]:
    """Each statement with whether it runs unconditionally in its function (or module);
    `functions`: also the statements of the functions and classes defined in `body`."""
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if functions:
                yield from statements(statement.body, True, True)
            continue
        yield statement, top
        for name in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(statement, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.ExceptHandler)):
                nested = [s for item in inner for s in (item.body if isinstance(item, ast.ExceptHandler) else [item])]
                # a `with` block always runs; everything else is a condition
                yield from statements(nested, functions, top and isinstance(statement, (ast.With, ast.AsyncWith)) and name == "body")


def key_writes(statement: ast.stmt) -> Iterator[tuple[str, str, ast.expr]]:
    """`NAME["key"] = value` and `NAME.update(key=value)`, as (NAME, key, value)."""
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                key = literal(target.slice)
                if isinstance(key, str):
                    yield target.value.id, key, statement.value
    elif isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name):
            for keyword in call.keywords:
                if keyword.arg is not None:
                    yield func.value.id, keyword.arg, keyword.value
            for argument in call.args:
                if isinstance(argument, ast.Dict):
                    for key, value in zip(argument.keys, argument.values):
                        if key is not None and isinstance(name := literal(key), str):
                            yield func.value.id, name, value


def default_writes(statement: ast.stmt) -> Iterator[tuple[str, str, ast.expr]]:
    """`NAME.setdefault("key", value)`, as (NAME, key, value): a write only where NAME lacks the key."""
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "setdefault" and isinstance(func.value, ast.Name) and len(call.args) == 2:
            key = literal(call.args[0])
            if isinstance(key, str) and not call.keywords:
                yield func.value.id, key, call.args[1]


def environment_writes(module: ast.Module) -> dict[str, tuple[Written, bool]]:
    """The `VLLM_*` variables the module's code writes with a literal where it runs unconditionally
    (at the top of the module or of a function): name -> (`NAME=value`, whether only when unset).
    A later line that may remove the variable (`os.environ.pop(NAME, None)`, `del os.environ[NAME]`,
    under a condition or not) leaves its value unknown."""
    found = {}
    for statement, top in statements(module.body, functions=True):
        variable = environment_write(statement) if top else None
        if variable is not None:
            name, value, only_unset = variable
            found[name] = (Written(value, statement.lineno, f"{name}={value}"), only_unset)
        elif (removed := environment_removal(statement)) in found:
            written, only_unset = found[removed]
            found[removed] = (Written(UNKNOWN, written.line, f"{written.text}, removed at line {statement.lineno}"), only_unset)
    return found


def environment_removal(statement: ast.stmt) -> str | None:
    """The variable `os.environ.pop("VLLM_X", ...)` or `del os.environ["VLLM_X"]` removes."""
    if isinstance(statement, ast.Delete) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Subscript) and is_environ(target.value) and isinstance(name := literal(target.slice), str):
            return name
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "pop" and is_environ(func.value) and call.args:
            name = literal(call.args[0])
            return name if isinstance(name, str) else None
    return None


def actor_environment(module: ast.Module) -> dict[str, tuple[Written, bool]]:
    """The `VLLM_*` variables of the `env_vars` a Ray actor is started with
    (`Actor.options(runtime_env={"env_vars": {...}}).remote(...)`, or `RuntimeEnv(env_vars=...)`),
    outside any `if`: Ray sets them in the actor's process, where the engine starts."""
    found = {}
    for statement in _unconditional(module.body):
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "remote"):
                continue
            options = node.func.value
            if isinstance(options, ast.Call) and isinstance(options.func, ast.Attribute) and options.func.attr == "options":
                for keyword in options.keywords:
                    if keyword.arg == "runtime_env":
                        found.update((name, (written, False)) for name, written in env_vars(keyword.value).items())
    return found


def env_vars(node: ast.expr) -> dict[str, Written]:
    """The literal `VLLM_*` variables of a runtime environment: `{"env_vars": {...}}` or
    `RuntimeEnv(env_vars={...})`, each at its key's line."""
    if isinstance(node, ast.Dict):
        inner = next((value for key, value in zip(node.keys, node.values) if key is not None and literal(key) == "env_vars"), None)
    elif isinstance(node, ast.Call):
        inner = next((keyword.value for keyword in node.keywords if keyword.arg == "env_vars"), None)
    else:
        inner = None
    found: dict[str, Written] = {}
    for key, value in zip(inner.keys, inner.values) if isinstance(inner, ast.Dict) else ():
        name, written = literal(key) if key is not None else None, literal(value)
        if key is not None and isinstance(name, str) and name.startswith("VLLM_") and isinstance(written, str):
            found[name] = Written(written, key.lineno, f"{name}={written}")
    return found


def _unconditional(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The simple statements of a module's functions outside any `if` or handler (a loop's body
    is in: an actor started per node is started)."""
    for statement in body:
        if isinstance(
            statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)
        ):
            yield from _unconditional(statement.body)
        elif isinstance(statement, ast.Try):
            yield from _unconditional(statement.body)
        elif not isinstance(statement, (ast.If, ast.Match)):
            yield statement


def environment_write(statement: ast.stmt) -> tuple[str, str, bool] | None:
    """`os.environ["VLLM_X"] = "v"` -> (name, value, False); `os.environ.setdefault(...)` -> True."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Subscript) and is_environ(target.value):
            name, value = literal(target.slice), literal(statement.value)
            if isinstance(name, str) and name.startswith("VLLM_") and isinstance(value, str):
                return name, value, False
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "setdefault" and is_environ(func.value) and len(call.args) == 2:
            name, value = literal(call.args[0]), literal(call.args[1])
            if isinstance(name, str) and name.startswith("VLLM_") and isinstance(value, str):
                return name, value, True
    return None


def is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"


def callee_name(call: ast.Call) -> str:
    """The last name of what a call calls (`vllm.LLM(...)`: `LLM`; `f(...)`: `f`), else ""."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def placed(path: str, text: str, line: int, anchor: Span) -> Span:
    """Where a finding about the value a fork writes at `line` sits: that line of its file
    (`anchor`, the launch, when the text is not at hand)."""
    return line_span(path, text, line) if text and path and line > 0 else anchor


def line_span(path: str, text: str, line: int) -> Span:
    """The span of a line of a fork's file without its indentation: where a finding about the
    value the fork writes there sits."""
    index = LineIndex(path, text)
    start = index.offset(line, 1)
    written = index.line_text(line).rstrip()
    indent = len(written) - len(written.lstrip())
    return index.span(start + indent, start + len(written))


def environment_settings(path: str, text: str, env: Mapping[str, Setting], owner: str) -> dict[str, Setting]:
    """`env` with the `VLLM_*` writes of a fork's module (`environment_writes`) over it, each at its
    line; a `setdefault` gives way to a value `env` has."""
    module = parse(text) if text else None
    found = dict(env)
    writes = {**actor_environment(module), **environment_writes(module)} if module is not None else {}
    for name, (written, only_unset) in writes.items():
        if not (only_unset and name in found):
            where = f"{owner}'s {path.rsplit('/', 1)[-1]}:{written.line}"
            found[name] = Setting(name, written.value, line_span(path, text, written.line), f"{written.text} ({where})", implied=True)
    return found


def named_dicts(module: ast.Module) -> dict[str, list[tuple[str, ast.expr]]]:
    """The dicts a fork's module names: a module-level constant bound once to a dict literal
    (`REPLAY_ARGS = {"return_sampling_mask": True}`, or `dict(...)`) by its name, and a function
    whose one `return` gives one (`def replay_kwargs(): return {...}`) as `name()`; each as its
    (key, value node) pairs. A dict with a key that is no string, or a `**` in it, is not listed."""
    bound: dict[str, list[ast.expr]] = {}
    for statement in module.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            bound.setdefault(statement.targets[0].id, []).append(statement.value)
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value is not None:
            bound.setdefault(statement.target.id, []).append(statement.value)  # `REPLAY: dict[str, Any] = {...}`
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and not statement.args.args:
            returns = [node.value for node in ast.walk(statement) if isinstance(node, ast.Return)]
            if len(returns) == 1 and returns[0] is not None:
                bound.setdefault(statement.name + "()", []).append(returns[0])
    changed = _changed_names(module)
    found = {}
    for name, values in bound.items():
        pairs = dict_pairs(values[0]) if len(values) == 1 and name.removesuffix("()") not in changed else None
        if pairs is not None:
            found[name] = pairs
    return found


def switched_dicts(module: ast.Module) -> dict[str, tuple[str, list[tuple[str, ast.expr]]]]:
    """Functions of the module without parameters that give one dict under a test and an empty one
    otherwise (`if os.environ.get("X", "0") != "1": return {}` then `return {...}`, or `if TEST:
    return {...}` then `return {}`), as `name()` -> (the test under which the dict is given, its
    pairs); `named_dicts` leaves them out (they have two returns)."""
    changed = _changed_names(module)
    found = {}
    for statement in module.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and not statement.args.args and statement.name not in changed:
            switched = _switched_return(statement.body)
            if switched is not None:
                found[statement.name + "()"] = switched
    return found


def _switched_return(body: list[ast.stmt]) -> tuple[str, list[tuple[str, ast.expr]]] | None:
    body = body[1:] if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else body
    if len(body) != 2 or not (isinstance(first := body[0], ast.If) and not first.orelse and len(first.body) == 1):
        return None
    early, last = first.body[0], body[1]
    if not (isinstance(early, ast.Return) and isinstance(last, ast.Return) and early.value is not None and last.value is not None):
        return None
    test = ast.unparse(first.test)
    given, other = dict_pairs(early.value), dict_pairs(last.value)
    if given == [] and other:
        return f"not ({test})", other
    return (test, given) if other == [] and given else None


_MUTATORS = frozenset(("update", "pop", "popitem", "setdefault", "clear", "__setitem__", "__delitem__"))


def _changed_names(module: ast.Module) -> set[str]:
    """Names the module binds more than once (anywhere: a branch, a function's `global`) or
    changes in place (`NAME[k] = v`, `del NAME[k]`, `NAME.update(...)`)."""
    stores: dict[str, int] = {}
    changed: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores[node.name] = stores.get(node.name, 0) + 1
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) and isinstance(node.value, ast.Name):
            changed.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            if isinstance(node.func.value, ast.Name):
                changed.add(node.func.value.id)
    return changed | {name for name, count in stores.items() if count > 1}


def nested_keys(node: ast.expr) -> tuple[tuple[str, Any, int], ...]:
    """A dict literal's own literal keys, each with its value's line: (key, value, line)."""
    return tuple((key, value, item.lineno) for key, item in dict_pairs(node) or () if (value := literal(item)) is not UNKNOWN)


def nested_settings(path: str, text: str, nested: tuple[tuple[str, Any, int], ...], anchor: Span, owner: str) -> dict[str, Setting]:
    """The keys of a dict a fork writes, each at its own line (a finding about
    `enable_adaptive_verification` sits on that key, not on the dict's)."""
    short = path.rsplit("/", 1)[-1]
    return {
        key: Setting(key, value, placed(path, text, line, anchor), f"({owner}'s {short}:{line}: {key}={value!r})", implied=True)
        for key, value, line in nested
    }


def dict_pairs(node: ast.expr) -> list[tuple[str, ast.expr]] | None:
    """A dict literal's (or a `dict(k=v, ...)` call's) keys and value nodes; None: not one, or a
    key not read here."""
    if isinstance(node, ast.Dict):
        keys = [literal(key) if key is not None else None for key in node.keys]
        return list(zip(keys, node.values)) if all(isinstance(key, str) for key in keys) else None  # type: ignore[arg-type]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        pairs = [(keyword.arg, keyword.value) for keyword in node.keywords]
        return pairs if all(key is not None for key, _ in pairs) else None  # type: ignore[return-value]
    return None


def rebound_merges(value: ast.expr, name: str) -> list[tuple[str | None, ast.expr]] | None:
    """What `name = dict(**name, ...)`, `name = {**name, ...}` or `name = name | x` merges over the
    dict's own keys (`merged_parts`' pairs after the first); None for any other value."""
    around = merged_around(value, name)
    return around[1] if around is not None and not around[0] else None


def merged_around(value: ast.expr, name: str) -> tuple[list[tuple[str | None, ast.expr]], list[tuple[str | None, ast.expr]]] | None:
    """What a merge that holds the dict `name` (or `self.name`) once (`{**DEFAULTS, **name, "k": v}`) merges under
    its keys and over them (`merged_parts`' pairs before and after it); None for any other value."""
    parts = merged_parts(value) or []
    own = [index for index, (key, part) in enumerate(parts) if key is None and ast.unparse(part) == name]  # `name`, `self.name`
    return (parts[: own[0]], parts[own[0] + 1 :]) if len(own) == 1 else None


def merged_parts(value: ast.expr) -> list[tuple[str | None, ast.expr]] | None:
    """The dicts and keys a merge builds from, in order (later ones win): `dict(a, **b, k=v)`,
    `{**a, **b, "k": v}`, `a | b`: (None, a) for a dict merged whole, (key, value) for a literal
    key; None for any other value (or a key that is no string)."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr):
        left = merged_parts(value.left) if isinstance(value.left, ast.BinOp) else [(None, value.left)]
        return None if left is None else [*left, (None, value.right)]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and len(value.args) <= 1:
        return [*((None, argument) for argument in value.args), *((keyword.arg, keyword.value) for keyword in value.keywords)]
    if isinstance(value, ast.Dict):
        pairs = [(_string(key) if key is not None else None, item) for key, item in zip(value.keys, value.values)]
        return None if any(key is not None and found is None for (found, _), key in zip(pairs, value.keys)) else pairs
    return None


def _string(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def named_dict(node: ast.expr, named: Mapping[str, list[tuple[str, ast.expr]]]) -> list[tuple[str, ast.expr]] | None:
    """The pairs of the module's dict that `node` names (`NAME`, `helper()`), None: another value."""
    if isinstance(node, ast.Name):
        return named.get(node.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args and not node.keywords:
        return named.get(node.func.id + "()")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
        return named.get(ast.unparse(node.func) + "()") if getattr(node.func.value, "id", "") == "self" else None
    return None


def attribute_write(statement: ast.stmt, name: str) -> tuple[str, ast.expr] | None:
    """`NAME.key = value` and `setattr(NAME, "key", value)`, as (key, value)."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name:
            return target.attr, statement.value
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and getattr(call.func, "id", "") == "setattr":
        if len(call.args) == 3 and getattr(call.args[0], "id", "") == name and isinstance(key := literal(call.args[1]), str):
            return key, call.args[2]
    return None


def spread_writes(statement: ast.stmt, name: str, named: Mapping[str, list[tuple[str, ast.expr]]]) -> list[tuple[str, ast.expr]]:
    """`for k, v in D.items(): setattr(NAME, k, v)` (or `NAME[k] = v`) over a dict of the module
    (`named_dicts`): each of its pairs, all of them written."""
    source = spread_source(statement, name)
    pairs = named_dict(source, named) if source is not None else None
    return pairs if pairs is not None else []


def spread_source(statement: ast.stmt, name: str) -> ast.expr | None:
    """The dict whose items `for k, v in D.items(): setattr(NAME, k, v)` (or `NAME[k] = v`)
    writes into NAME: D; None: another statement."""
    if not (isinstance(statement, ast.For) and len(statement.body) == 1 and not statement.orelse):
        return None
    target, source = statement.target, statement.iter
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)):
        return None
    if not (isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "items"):
        return None
    key, value = (e.id for e in target.elts)  # type: ignore[attr-defined]
    inner = statement.body[0]
    by_setattr = (
        isinstance(inner, ast.Expr)
        and isinstance(call := inner.value, ast.Call)
        and getattr(call.func, "id", "") == "setattr"
        and [getattr(argument, "id", "") for argument in call.args] == [name, key, value]
    )
    by_item = (
        isinstance(inner, ast.Assign)
        and isinstance(item := inner.targets[0], ast.Subscript)
        and getattr(item.value, "id", "") == name
        and getattr(item.slice, "id", "") == key
        and getattr(inner.value, "id", "") == value
    )
    return source.func.value if by_setattr or by_item else None
