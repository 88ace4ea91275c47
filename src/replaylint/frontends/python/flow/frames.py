"""Where an expression is read: the module, the function (or the module body), its class, the
arguments a call site in the tree gave it, and the statement being read (`Frame`); and what a
name is bound to there (`Binding`), by Python's rules: a name assigned in a function is local,
the last assignment before the use decides, one made under a branch the use is not under
decides nothing."""

from __future__ import annotations

import ast
from dataclasses import field, replace
from typing import Any, Iterator, Protocol

from ....records import record
from .facts import Kwargs, Val
from .module import FUNCTIONS, Module, Placed, global_writes


@record(unsafe_hash=True)
class ActorEnv:
    """The `env_vars` mapping of a Ray actor's `runtime_env` (`{"env_vars": {...}}`), or, with
    `at`, a `runtime_env` the code builds elsewhere, read where it is given (`ray.init(runtime_env=make_env())`)."""

    module: Module
    node: ast.expr
    at: Frame | None = None


@record(unsafe_hash=True)
class Frame:
    module: Module
    scope: ast.AST  # ast.Module or a function
    cls: ast.ClassDef | None = None
    args: dict[str, Val] | None = None  # parameters bound by a call site; None: no caller followed
    at: Placed | None = None  # the statement read; None: the end of the scope (a return value)
    depth: int = 0
    stack: tuple[int, ...] = ()  # functions being read (recursion reads nothing)
    init: dict[str, Val] | None = None  # the arguments the object's `__init__` was given (a method's frame)
    sites: tuple[tuple[ast.AST, Placed], ...] = ()  # the call that led here: its scope and statement
    actor_env: tuple[ActorEnv, ...] = ()  # the `env_vars` of a Ray actor's `runtime_env`
    outer: Frame | None = None  # a closure's enclosing function, as the call that made the closure read it
    instance: Any = None  # the fields of the record a `@property` is read on (`args.engine_kwargs`): `self`'s
    made: Any = None  # the span of the construction of the object whose method is read (`Engine.remote(...)`)
    turn: Any = None  # (the `for`, what its names hold) of the loop turn being read (`loop_turns`)
    importer: Any = None  # (module, statement) of another module's top-level call that led here (`environ`)
    caller: Frame | None = None  # the frame of a call in another module's function that led here (`environ`)
    # the frame whose call's return value is being read (`args = get_args()`: `argv_changes`)
    returned_to: Frame | None = field(default=None, compare=False)

    def reading(self, at: Placed | None) -> Frame:
        return replace(self, at=at)

    @property
    def function(self) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        return self.scope if isinstance(self.scope, FUNCTIONS) else None


@record(unsafe_hash=True)
class Binding:
    """What binds a name: an assignment's value (`element`: its place in a tuple target), a
    parameter, a definition, an import, or something unreadable (`opaque`)."""

    kind: str  # "value", "each" (a loop's target), "parameter", "definition", "import", "opaque"
    placed: Placed | None = None
    value: ast.expr | None = None
    element: int | None = None
    node: ast.AST | None = None


class Evaluates(Protocol):
    """What reads an expression in a frame (the reader; its helpers take it by this face)."""

    def evaluate(self, node: ast.expr | None, frame: Frame) -> Val: ...

    def merged_in(self, found: Kwargs, node: ast.Call, frame: Frame, certain: bool) -> None: ...  # `cfg.merge_with(...)`

    def taken(self, placed: Placed, frame: Frame) -> bool | None: ...  # a binding's branches where a name is read (`Decides`)


def position(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def end(node: ast.AST) -> tuple[int, int]:
    return node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    arguments = function.args
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]


def binds(statement: ast.stmt, name: str) -> Binding | None:
    """How `statement` (not what it nests) binds `name`, if it does."""
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Name) and target.id == name:
                return Binding("value", value=statement.value) if len(statement.targets) == 1 else Binding("opaque")
            if isinstance(target, (ast.Tuple, ast.List)):
                for number, element in enumerate(target.elts):
                    if isinstance(element, ast.Name) and element.id == name:
                        return Binding("value", value=statement.value, element=number)
                    if isinstance(element, ast.Starred) and _names(element, name):
                        return Binding("opaque")
    elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.target.id == name:
        return Binding("value", value=statement.value) if statement.value is not None else None
    elif isinstance(statement, (*FUNCTIONS, ast.ClassDef)) and statement.name == name:
        return Binding("definition", node=statement)
    elif isinstance(statement, (ast.Import, ast.ImportFrom)):
        if any((alias.asname or alias.name.split(".")[0]) == name for alias in statement.names):
            return Binding("import", node=statement)
    elif isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.BitOr) and isinstance(statement.target, ast.Name):
        return None  # `d |= {...}`: a write into the dict (`dicts`), not a new binding
    elif isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add) and getattr(statement.target, "id", None) == name:
        return Binding("value", value=_grown(statement))  # `cmd += [...]`, `n += 1`
    elif isinstance(statement, (ast.For, ast.AsyncFor)) and isinstance(statement.target, ast.Name) and statement.target.id == name:
        return Binding("each", value=statement.iter, node=statement)  # what the loop's iterable gives (`generators`)
    elif isinstance(statement, (ast.For, ast.AsyncFor)) and _unpacks(statement.target, name):
        return Binding("each", value=statement.iter, node=statement)  # `for key, preset in PRESETS.items():`
    elif isinstance(statement, (ast.With, ast.AsyncWith)) and (entered := _entered(statement, name)) is not None:
        return Binding("entered", value=entered, node=statement)  # what `__enter__` gives (`generators`)
    elif isinstance(statement, (ast.AugAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Delete)):
        if _names(statement, name, stores_only=True):
            return Binding("opaque")
    elif (named := _walrus(statement, name)) is not None:
        return Binding("value", value=named.value) if _tested(statement, named) else Binding("opaque")
    return None


def _grown(statement: ast.AugAssign) -> ast.expr:
    """`cmd += [...]` read as `cmd + [...]`, its `cmd` the binding before the statement (made once per statement)."""
    made = statement.__dict__.get("_grown")
    if made is None:
        before = ast.copy_location(ast.Name(statement.target.id, ast.Load()), statement.target)  # type: ignore[attr-defined]
        made = statement.__dict__["_grown"] = ast.copy_location(ast.BinOp(before, ast.Add(), statement.value), statement)
    return made


def _entered(statement: ast.With | ast.AsyncWith, name: str) -> ast.expr | None:
    """The context expression of `with make() as name:` (a plain name), when no other item binds `name`."""
    found = [item for item in statement.items if item.optional_vars is not None and _names(item.optional_vars, name)]
    if len(found) != 1 or not isinstance(found[0].optional_vars, ast.Name):
        return None
    return found[0].context_expr


def _unpacks(target: ast.expr, name: str) -> bool:
    """`for key, (a, b) in ...`: `name` is one of the names the target unpacks (none starred)."""
    if not isinstance(target, (ast.Tuple, ast.List)) or any(isinstance(node, ast.Starred) for node in ast.walk(target)):
        return False
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(target))


def _names(node: ast.AST, name: str, stores_only: bool = False) -> bool:
    for child in _shallow_walk(node):
        if isinstance(child, ast.Name) and child.id == name and (not stores_only or isinstance(child.ctx, (ast.Store, ast.Del))):
            return True
    return False


def _walrus(statement: ast.stmt, name: str) -> ast.NamedExpr | None:
    return next(
        (
            child
            for child in _shallow_walk(statement)
            if isinstance(child, ast.NamedExpr) and isinstance(child.target, ast.Name) and child.target.id == name
        ),
        None,
    )


def _tested(statement: ast.stmt, named: ast.NamedExpr) -> bool:
    """Whether `named` is evaluated once, before the statement's branches: `if (spec := cfg.x) is not None:`
    (in a comprehension or a loop's test it is rebound on every turn)."""
    if not isinstance(statement, ast.If):
        return False
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
    inside = {id(node) for outer in ast.walk(statement.test) if isinstance(outer, comprehensions) for node in ast.walk(outer)}
    return id(named) not in inside


def _bound_before(placed: Placed, binding: Binding, use: tuple[int, int]) -> bool:
    """Whether the binding is made before `use`: a walrus in an `if` test binds before its branches."""
    if isinstance(placed.statement, ast.If) and binding.value is not None:
        return end(binding.value) <= use
    if binding.kind in ("each", "entered"):  # a loop's target, a `with`'s: bound before its body runs
        return end(binding.value) <= use  # type: ignore[arg-type]
    return end(placed.statement) <= use


def _shallow_walk(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a statement, not those of the statements it holds (a branch's body); the
    children of each in `ast.iter_child_nodes`' order, read without its generators (a third of
    the walk's time)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, list):
                stack.extend(child for child in value if isinstance(child, ast.AST) and not isinstance(child, _HELD))
            elif isinstance(value, ast.AST) and not isinstance(value, _HELD):
                stack.append(value)


_HELD = (ast.stmt, ast.Lambda)  # what `_shallow_walk` does not enter


def expressions(statement: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of one statement's own expressions (public name for readers of a scope)."""
    return _shallow_walk(statement)


class Decides(Protocol):
    """Whether a binding's branch is taken where the name is read: True (its guards hold), False
    (one is decided against), None (not known)."""

    def __call__(self, placed: Placed, frame: Frame) -> bool | None: ...


def reaching(frame: Frame, name: str, decide: Decides | None = None) -> Binding | None:
    """The binding of `name` that holds where `frame` reads it (None: not bound in the tree).
    With `decide`, a binding under a branch the use is not under counts when its branch is
    decided (`if kw is None: kw = {}` where `kw` is None), and is passed over when decided against."""
    scope = frame.scope
    if isinstance(scope, FUNCTIONS):
        found = _in_scope(frame, name, decide)
        if found is not None:
            return found
        if any(argument.arg == name for argument in _every_parameter(scope)):
            return Binding("parameter", node=scope)
        around = _enclosing(frame, name)
        if around is not None:
            return around
        module_frame = replace(frame, scope=frame.module.tree, at=None)
        return _in_scope(module_frame, name)
    return _in_scope(frame, name, decide)


def _enclosing(frame: Frame, name: str) -> Binding | None:
    """A name a nested function (or a method of a class written in a function) reads from a function
    around it: its import there (`from vllm import LLM` in `worker_process`); any other binding
    there is what a call of that function gives, not known here (a closure read with it: `enclosed`)."""
    function = frame.module.enclosing(frame.scope)
    while function is not None:
        if any(argument.arg == name for argument in _every_parameter(function)):
            return Binding("opaque")
        found = _in_scope(replace(frame, scope=function, cls=None, at=None), name)
        if found is not None:
            return found if found.kind == "import" else Binding("opaque")
        function = frame.module.enclosing(function)
    return None


def enclosed(frame: Frame, name: str) -> bool:
    """Whether `name` is read in a closure from its enclosing function (not bound in the closure itself)."""
    scope = frame.scope
    if frame.outer is None or not isinstance(scope, FUNCTIONS):
        return False
    return not frame.module.binders(scope, name) and all(argument.arg != name for argument in _every_parameter(scope))


def _every_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    arguments = function.args
    return [*parameters(function), *(star for star in (arguments.vararg, arguments.kwarg) if star is not None)]


def _in_scope(frame: Frame, name: str, decide: Decides | None = None) -> Binding | None:
    placed = frame.module.binders(frame.scope, name)
    bound = [(p, b) for p in placed if (b := binds(p.statement, name)) is not None]
    bound = [(p, b) for p, b in bound if not _import_fallback(p, bound)]
    if not bound:
        return None
    bound = _one_package(bound, name)
    if frame.at is None:
        before = bound
    else:
        use = position(frame.at.statement)
        before = [(p, b) for p, b in bound if _bound_before(p, b, use)]
        if isinstance(frame.scope, FUNCTIONS) and not before:
            if any(argument.arg == name for argument in _every_parameter(frame.scope)):
                return None  # a parameter rebound later (`kw = kw or {}`): the parameter here
            return Binding("opaque")  # local, but not yet bound here
        if not before:
            before = bound
    use_guards = frame.at.guards if frame.at is not None else ()
    if (cached := _made_once(frame, name, before, use_guards)) is not None:
        return cached
    while decide is not None and frame.at is not None and before and before[-1][0].guards != use_guards[: len(before[-1][0].guards)]:
        taken = decide(before[-1][0], frame)
        if taken is None:
            return _only_binding(frame, name, bound) or Binding("opaque")
        if taken:
            return replace(before[-1][1], placed=before[-1][0])
        before = before[:-1]  # a branch never taken here
    if not before:
        return None  # every binding before the use is on a path not taken: the parameter, or the module's
    last_placed, last = before[-1]
    if last_placed.guards != use_guards[: len(last_placed.guards)]:
        return _only_binding(frame, name, bound) or Binding("opaque")  # bound on some paths only
    if frame.at is None and (len(bound) > 1 or bound[0][0].guards):
        return Binding("opaque")  # read at call time: which binding holds depends on when
    return replace(last, placed=last_placed)


def _only_binding(frame: Frame, name: str, bound: list[tuple[Placed, Binding]]) -> Binding | None:
    """A function's local (no parameter) bound by one statement only, under `if`s the use is not under: the use
    runs only where they held (else Python raises UnboundLocalError), so that binding holds
    (HELMET's `if args.use_vllm: model_cls = VLLMModel`, then `model_cls(...)`)."""
    if len(bound) == 1 and isinstance(frame.scope, ast.Module):
        return _only_import(frame, name, *bound[0])
    if not isinstance(frame.scope, FUNCTIONS) or frame.at is None or len(bound) != 1:
        return None
    if any(argument.arg == name for argument in _every_parameter(frame.scope)):
        return None  # the parameter holds where the branch was not taken (`if not sets: sets = [...]`)
    placed, binding = bound[0]
    if any(guard.opaque or guard.node is None for guard in placed.guards):
        return None  # a loop's or a handler's: it may run any number of times
    if not _bound_before(placed, binding, position(frame.at.statement)):
        return None
    declared = (ast.Global, ast.Nonlocal)
    if any(isinstance(p.statement, declared) and name in p.statement.names for p in frame.module.statements(frame.scope)):  # type: ignore[attr-defined]
        return None
    return replace(binding, placed=placed)


def _only_import(frame: Frame, name: str, placed: Placed, binding: Binding) -> Binding | None:
    """A module's name bound by one import only, under `if`s (`if is_vllm_available(): from vllm
    import LLM`): wherever the name is read the import ran (else Python raises NameError), so it holds."""
    if binding.kind != "import" or any(guard.opaque or guard.node is None for guard in placed.guards):
        return None
    if any("TYPE_CHECKING" in guard.test for guard in placed.guards):
        return None  # for the type checker only: never run
    if frame.at is not None and not _bound_before(placed, binding, position(frame.at.statement)):
        return None
    if frame.module.binders(frame.module.tree, "*") or global_writes(frame.module, name):
        return None  # a star import or a function's `global` may bind it too
    return replace(binding, placed=placed)


def _one_package(bound: list[tuple[Placed, Binding]], name: str) -> list[tuple[Placed, Binding]]:
    """`import vllm` and `import vllm.sampling_params`: each binds `vllm` to the same package, so
    they are one binding (the last unguarded one, which the module's imports name)."""
    if len(bound) < 2 or not all(binding.kind == "import" and _plain_import(binding.node, name) for _, binding in bound):
        return bound
    unguarded = [(placed, binding) for placed, binding in bound if not placed.guards]
    return unguarded[-1:] or bound


def _plain_import(statement: ast.AST | None, name: str) -> bool:
    """`import NAME` or `import NAME.sub` (no `as`): the name is the top package itself."""
    if not isinstance(statement, ast.Import):
        return False
    return all(alias.asname is None for alias in statement.names if (alias.asname or alias.name.split(".")[0]) == name)


def _import_fallback(placed: Placed, bound: list[tuple[Placed, Binding]]) -> bool:
    """Whether `placed` binds the name in an `except ImportError:` whose `try` binds it too with
    an import: the program as run where its imports succeed takes the `try`'s (`try: from vllm
    import AsyncLLMEngine` / `except ImportError: from vllm.engine.async_llm_engine import ...`)."""
    attempt = placed.guards[-1].fallback_of if placed.guards else None
    if attempt is None:
        return False
    tried = {id(node) for statement in attempt.body for node in ast.walk(statement) if isinstance(node, (ast.Import, ast.ImportFrom))}
    return any(id(other.statement) in tried and binding.kind == "import" for other, binding in bound)


def _made_once(frame: Frame, name: str, before: list, use_guards: tuple) -> Binding | None:
    """`if _llm is None: _llm = LLM(...)` (under `global _llm`), then `_llm` read after it (in a
    loop too): the one value it is ever made with, where every other binding of the name is `None`
    (also one of the function's before it: alpaca_eval's `if model_name != llmModelName: llm = None`)."""
    placed, binding = before[-1]
    guards = placed.guards
    if not guards or guards[:-1] != use_guards[: len(guards) - 1] or not guards[-1].holds:
        return None
    if any(not _binds_none(earlier.statement) for earlier, _ in before[:-1]):
        return None
    test = guards[-1].node
    if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == name and len(test.ops) == 1):
        return None
    if not (isinstance(test.ops[0], ast.Is) and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
        return None
    others = frame.module.binders(frame.module.tree, name)
    if not others or any(not _binds_none(other.statement) for other in others):
        return None
    return replace(binding, placed=placed)


def _binds_none(statement: ast.stmt) -> bool:
    value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else False
    return isinstance(value, ast.Constant) and value.value is None


def class_level(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method is a classmethod or a staticmethod (called on the class itself)."""
    return any(isinstance(d, ast.Name) and d.id in ("classmethod", "staticmethod") for d in method.decorator_list)


def is_class_level(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether `name` is a classmethod's `cls`."""
    params = parameters(function)
    classmethod = any(isinstance(d, ast.Name) and d.id == "classmethod" for d in function.decorator_list)
    return bool(params) and params[0].arg == name and classmethod
