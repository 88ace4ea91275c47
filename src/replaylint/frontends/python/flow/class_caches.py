"""An engine a class attribute caches: princeton-pli LongProc's `class _VLLMBackend: llm = None`,
filled on first use by `_VLLMBackend.llm = LLM(...)` under `if _VLLMBackend.llm is None:`, then
`llm = _VLLMBackend.llm` and `llm.chat(...)`. A request sent to the attribute (or to a name bound
to it) reaches the engine its one write stores: a request is never sent to the None it starts as.
Another write, or a class body that binds it to anything but None, leaves the receiver unknown.

The same of a module-level name (`global_engine`): vLLM's old `api_server.py` and openchat's server
write `engine = None` at the top of the module and `engine = AsyncLLMEngine.from_engine_args(...)`
under `if __name__ == "__main__":` (or in a function that declares it `global`); a route's
`engine.generate(...)` reaches that engine. Any other binding of the name (a second engine, a loop,
an import, `del`) leaves the receiver unknown."""

from __future__ import annotations

import ast
from typing import Iterator

from .frames import Evaluates, Frame, reaching
from .module import FUNCTIONS, Module, Placed
from .objects import Class
from .refs import Engine


def cached_engine(reader: Evaluates, receiver: ast.expr, frame: Frame) -> Engine | None:
    """The engine `receiver` (`_VLLMBackend.llm`, or a name bound to it where `frame` reads it) holds."""
    held = _held(receiver, frame)
    if held is None:
        return global_engine(reader, receiver, frame)
    owner = reader.evaluate(held.value, frame).ref
    if not isinstance(owner, Class) or owner.module is not frame.module or not _starts_empty(owner.node, held.attr):
        return None
    writes = [
        *_writes(frame.module, frame.module.tree, f"{owner.node.name}.{held.attr}"),
        *_writes(frame.module, owner.node, f"cls.{held.attr}"),
    ]
    if len(writes) != 1:
        return None
    scope, placed, value = writes[0]
    at = frame.reading(placed) if scope is frame.scope else Frame(frame.module, scope, None, None, placed)
    made = reader.evaluate(value, at).ref
    return made if isinstance(made, Engine) else None


def _held(receiver: ast.expr, frame: Frame) -> ast.Attribute | None:
    if isinstance(receiver, ast.Name):
        binding = reaching(frame, receiver.id)
        if binding is None or binding.kind != "value" or binding.element is not None:
            return None
        receiver = binding.value  # type: ignore[assignment]
    return receiver if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) else None


def _starts_empty(cls: ast.ClassDef, attr: str) -> bool:
    """Whether the class body binds `attr` to None only (or not at all)."""
    for statement in cls.body:
        targets = (
            statement.targets if isinstance(statement, ast.Assign) else [statement.target] if isinstance(statement, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == attr for t in targets):
            value = statement.value  # type: ignore[union-attr]
            if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
                return False
    return True


def _writes(module: Module, within: ast.AST, target: str) -> Iterator[tuple[ast.AST, Placed, ast.expr]]:
    """(scope, statement, value) of each `target = value` (`Cls.attr`, or `cls.attr` in the class's
    methods) in `within` (the module or the class), but those of None."""
    scopes = (
        [within, *(node for node in ast.walk(within) if isinstance(node, FUNCTIONS))]
        if within is module.tree
        else [node for node in ast.walk(within) if isinstance(node, FUNCTIONS)]
    )
    for scope in scopes:
        for placed in module.statements(scope):
            statement = placed.statement
            if not isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                continue
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if not any(isinstance(t, ast.Attribute) and ast.unparse(t) == target for t in targets):
                continue
            value = statement.value
            if not (isinstance(value, ast.Constant) and value.value is None):
                yield scope, placed, value  # type: ignore[misc]


def global_engine(reader: Evaluates, receiver: ast.expr, frame: Frame) -> Engine | None:
    """The engine a module-level name read in a function holds: bound to None and, once, to an
    engine, at the module's top level or in a function that declares it `global`."""
    module = frame.module
    if not isinstance(receiver, ast.Name) or not isinstance(frame.scope, FUNCTIONS) or _binds(frame.scope, receiver.id):
        return None
    if _shadowed(module, frame.scope, receiver.id):  # `llm` of a closure is its factory's parameter (`get_infer_next_token(llm)`)
        return None
    scopes = [module.tree, *(n for n in ast.walk(module.tree) if isinstance(n, FUNCTIONS) and _declares_global(n, receiver.id))]
    writes = []
    for scope in scopes:
        for placed in module.statements(scope):
            value = _bound_value(placed.statement, receiver.id)
            if value is False:
                return None  # bound some other way (a loop, an import, `del`, a tuple)
            if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
                writes.append((scope, placed, value))
    if len(writes) != 1:
        return None
    scope, placed, value = writes[0]
    made = reader.evaluate(value, Frame(module, scope, None, None, placed)).ref
    return made if isinstance(made, Engine) else None


def _shadowed(module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether a function the given one is written in takes or binds `name` (or the function takes it)."""
    around: ast.FunctionDef | ast.AsyncFunctionDef | None = function
    while around is not None:
        arguments = around.args
        taken = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        if any(a is not None and a.arg == name for a in taken) or (around is not function and _binds(around, name)):
            return True
        around = module.enclosing(around)
    return False


def _declares_global(function: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Global) and name in node.names for node in ast.walk(function))


def _binds(function: ast.AST, name: str) -> bool:
    """Whether a function binds `name` itself (a local, or one it declares global)."""
    stored = (isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load) for node in ast.walk(function))
    return any(stored) or _declares_global(function, name)


def _bound_value(statement: ast.stmt, name: str) -> ast.expr | None | bool:
    """The value `name = value` binds (None: the statement does not bind the name; False: it binds
    it another way)."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return statement.value if statement.value is not None else None
        return False if any(_names(t, name) for t in targets) else None
    if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
        return False if statement.name == name else None
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return False if any((a.asname or a.name.partition(".")[0]) == name for a in statement.names) else None
    own = [statement.target] if isinstance(statement, (ast.For, ast.AsyncFor, ast.AugAssign)) else []
    own += [item.optional_vars for item in getattr(statement, "items", []) if item.optional_vars is not None]
    own += statement.targets if isinstance(statement, ast.Delete) else []
    return False if any(_names(t, name) for t in own) else None


def _names(target: ast.expr, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(target))
